import { expect } from "chai";
import { pagesBrowser } from "../../helpers/browser";
import { createKey } from "../../helpers/factories";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { sessionUser } from "../../helpers/platform-fixtures";

/** The API-keys page shows each key's last use and the account's usage by day and model. */
describe("API-keys page: last use and usage", function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  it("shows when each key last started a run, and the calls, tokens and cost by day and model", async () => {
    const user = await sessionUser(h.deps.ds, "usage");
    const used = await createKey(h.deps.ds, { userId: user.id, name: "used" });
    const idle = await createKey(h.deps.ds, { userId: user.id, name: "idle" });
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: used.key,
      body: { agent_config: { agent_name: "Page", model_name: "gpt-4.1", max_loops: 2 }, task: "Name a bee." },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [run] = await h.deps.ds.query(`SELECT queued_at FROM runs WHERE job_id = $1`, [res.body.job_id]);
    const [steps] = await h.deps.ds.query(
      `SELECT count(*)::int AS calls, sum(input_tokens)::int AS input, sum(output_tokens)::int AS output
         FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE r.job_id = $1`,
      [res.body.job_id],
    );

    const page = await newPage({ sessionToken: user.token });
    expect((await page.goto("/platform/api-keys"))!.status()).to.equal(200);
    const lastUsed = (id: string) => page.locator(`tr[data-key-id="${id}"] [data-field="last-used"]`);
    expect(await lastUsed(used.keyId).locator("time").getAttribute("datetime")).to.equal(
      new Date(run.queued_at).toISOString(),
    );
    expect(await lastUsed(idle.keyId).innerText()).to.equal("never");

    const rows = await page.locator('[data-field="usage"] tbody tr').allInnerTexts();
    const today = new Date().toISOString().slice(0, 10);
    // The run's call, and its per-agent charge (a fee of the ledger: no calls, no tokens).
    expect(rows).to.have.length(2);
    const fee = rows.map((row) => row.split("\t").map((c) => c.trim())).find((cells) => cells[1] === "fee:agent");
    expect(fee?.slice(0, 3)).to.deep.equal([today, "fee:agent", "0"]);
    const cells = rows.map((row) => row.split("\t").map((c) => c.trim())).find((c) => c[1] === "gpt-4.1")!;
    expect(cells.slice(0, 3)).to.deep.equal([today, "gpt-4.1", String(steps.calls)]);
    expect(cells[3]).to.equal(
      `${steps.input.toLocaleString("en-US")} in / ${steps.output.toLocaleString("en-US")} out`,
    );
    expect(cells[4]).to.match(/^\$\d/);
    expect(await page.locator('[data-field="usage-total"]').innerText()).to.include(String(steps.calls));
    // Neither key appears in full anywhere on the page.
    const html = await page.content();
    for (const key of [used.key, idle.key]) expect(html).to.not.include(key);
  });

  it("says so when the account made no calls", async () => {
    const user = await sessionUser(h.deps.ds, "quiet");
    const page = await newPage({ sessionToken: user.token });
    expect((await page.goto("/platform/api-keys"))!.status()).to.equal(200);
    expect(await page.locator('[data-field="no-usage"]').innerText()).to.equal("No calls in this period.");
  });
});
