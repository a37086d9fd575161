import { expect } from "chai";
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { pagesBrowser } from "../../helpers/browser";
import { createKey, createRun } from "../../helpers/factories";
import { harness, type Harness } from "../../helpers/harness";
import { eventually, request } from "../../helpers/http";
import { sessionUser } from "../../helpers/platform-fixtures";
import { LEDGER_SUMS_OF_RUNS } from "../../../shared/db/usage-store";

const amount = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 6 });
const dollars = (n: number) => (n < 0 ? `-$${amount(-n)}` : `$${amount(n)}`);
const tokens = (input: number, output: number) => `${amount(input)} in / ${amount(output)} out`;

/** The cells of each row of a table, trimmed. */
async function rowsOf(page: Page, selector: string): Promise<string[][]> {
  const rows = await page.locator(`${selector} tbody tr`).allInnerTexts();
  return rows.map((row) => row.split("\t").map((cell) => cell.trim()));
}

const refreshOf = (page: Page) => page.locator('meta[http-equiv="refresh"]');

/** The runs page and one run's page, in a real browser with no script. */
describe("runs pages", function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  it("lists each account's own runs only, newest first, a page at a time", async () => {
    const alice = await sessionUser(h.deps.ds, "runs-alice");
    const bob = await sessionUser(h.deps.ds, "runs-bob");
    const aliceKeys = [
      await createKey(h.deps.ds, { userId: alice.id }),
      await createKey(h.deps.ds, { userId: alice.id }),
    ];
    const bobKey = await createKey(h.deps.ds, { userId: bob.id });
    const start = Date.now() - 3_600_000;
    const aliceRuns: string[] = [];
    for (let i = 0; i < 23; i++) {
      const key = aliceKeys[i % 2];
      const run = await createRun(h.deps.ds, {
        kind: i % 3 === 0 ? "swarm" : "agent",
        status: "succeeded",
        owner: { apiKeyId: key.keyId, userId: alice.id },
        queuedAt: new Date(start + i * 1000),
      });
      aliceRuns.push(run.job_id);
    }
    const bobRun = await createRun(h.deps.ds, {
      kind: "agent",
      status: "failed",
      owner: { apiKeyId: bobKey.keyId, userId: bob.id },
      queuedAt: new Date(start + 500),
    });
    const newestFirst = [...aliceRuns].reverse();

    const page = await newPage({ sessionToken: alice.token });
    expect((await page.goto("/platform/runs"))!.status()).to.equal(200);
    const ids = () =>
      page.locator("[data-field=runs] tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-job-id")));
    expect(await ids()).to.deep.equal(newestFirst.slice(0, 20));
    await page.locator("[data-field=next-page]").click();
    expect(await ids()).to.deep.equal(newestFirst.slice(20));
    expect(await page.locator("[data-field=next-page]").count()).to.equal(0);

    // A filter is allow-listed and applied: one kind, then one state.
    expect((await page.goto("/platform/runs?kind=swarm"))!.status()).to.equal(200);
    expect(await ids()).to.deep.equal(newestFirst.filter((_, i) => (22 - i) % 3 === 0));
    expect((await page.goto("/platform/runs?status=failed"))!.status()).to.equal(200);
    expect(await page.locator("[data-field=no-runs]").count()).to.equal(1);

    const bobs = await newPage({ sessionToken: bob.token });
    expect((await bobs.goto("/platform/runs"))!.status()).to.equal(200);
    const bobIds = await bobs
      .locator("[data-field=runs] tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-job-id")));
    expect(bobIds).to.deep.equal([bobRun.job_id]);
  });

  it("refuses a state or kind it does not know, and a cursor of another query, with a 400 page", async () => {
    const user = await sessionUser(h.deps.ds, "runs-bad");
    const page = await newPage({ sessionToken: user.token });
    for (const query of [
      "status=exploded",
      "kind=%3Cscript%3E",
      "status=queued&status=failed",
      "cursor=abc.def",
      "limit=5000",
    ]) {
      const res = await page.goto(`/platform/runs?${query}`);
      expect(res!.status(), query).to.equal(400);
      expect(await page.locator("[data-field=message]").count(), query).to.equal(1);
    }
  });

  it("shows a multi-step run's steps, tokens and cost as GET /v1/jobs/{id} and /steps give them", async () => {
    const user = await sessionUser(h.deps.ds, "runs-steps");
    const { key } = await createKey(h.deps.ds, { userId: user.id });
    const res = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key,
      body: {
        swarm_type: "SequentialWorkflow",
        task: "Home batteries",
        agents: [
          { agent_name: "Researcher", system_prompt: "List three facts.", model_name: "gpt-4.1" },
          { agent_name: "Writer", system_prompt: "Write a brief.", model_name: "gpt-4o-mini" },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const jobId: string = res.body.job_id;
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
    const steps = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}/steps`, { key });
    expect(steps.body.steps.length).to.be.greaterThan(2);

    const page = await newPage({ sessionToken: user.token });
    expect((await page.goto(`/platform/runs/${jobId}`))!.status()).to.equal(200);
    expect(await page.locator("[data-field=status]").innerText()).to.equal(job.body.status);
    expect(await refreshOf(page).count()).to.equal(0);
    const rows = await rowsOf(page, "[data-field=steps]");
    expect(rows.map((cells) => cells.slice(1, 6))).to.deep.equal(
      steps.body.steps.map((s: any) => [
        s.type,
        s.agent ?? "",
        s.model ?? s.charge ?? "",
        tokens(s.input_tokens, s.output_tokens),
        dollars(s.cost),
      ]),
    );
    expect(await page.locator("[data-field=cost]").innerText()).to.equal(dollars(steps.body.total_cost));
    expect(steps.body.total_cost).to.equal(job.body.usage.billing_info.total_cost);
    const input = steps.body.steps.reduce((n: number, s: any) => n + s.input_tokens, 0);
    const output = steps.body.steps.reduce((n: number, s: any) => n + s.output_tokens, 0);
    expect(await page.locator("[data-field=tokens]").innerText()).to.equal(tokens(input, output));
    expect(await page.locator("[data-field=models]").innerText()).to.equal("gpt-4.1, gpt-4o-mini");
    expect(JSON.parse(await page.locator("[data-field=answer]").innerText())).to.deep.equal(job.body);

    // The list shows the same run with the same figures.
    expect((await page.goto("/platform/runs"))!.status()).to.equal(200);
    const row = page.locator(`tr[data-job-id="${jobId}"]`);
    expect(await row.locator("[data-field=tokens]").innerText()).to.equal(tokens(input, output));
    expect(await row.locator("[data-field=cost]").innerText()).to.equal(dollars(steps.body.total_cost));
    expect(await row.locator("[data-field=models]").innerText()).to.equal("gpt-4.1, gpt-4o-mini");
  });

  it("shows a batch's items, each linking to its page, and never a secret its request carried", async () => {
    const user = await sessionUser(h.deps.ds, "runs-batch");
    const { key } = await createKey(h.deps.ds, { userId: user.id });
    const secret = `tenant-secret-${randomUUID()}`;
    const res = await request(h.baseUrl, "POST", "/v1/agent/batch/completions", {
      key,
      body: [
        {
          agent_config: { agent_name: "Keeper", model_name: "gpt-4.1", llm_args: { metadata: { api_key: secret } } },
          task: "Name a bee.",
        },
        { agent_config: { agent_name: "Poet", model_name: "gpt-4o-mini" }, task: "Write a haiku about bees." },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const batchId: string = res.body.batch_id;
    const items = await request(h.baseUrl, "GET", `/v1/jobs?parent=${batchId}`, { key });
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${batchId}`, { key });
    const steps = await request(h.baseUrl, "GET", `/v1/jobs/${batchId}/steps`, { key });

    const page = await newPage({ sessionToken: user.token });
    expect((await page.goto(`/platform/runs/${batchId}`))!.status()).to.equal(200);
    expect(await page.locator("[data-field=kind]").innerText()).to.equal("agent_batch");
    expect(await page.locator("[data-field=cost]").innerText()).to.equal(dollars(steps.body.total_cost));
    expect(await page.locator("[data-field=models]").innerText()).to.equal("gpt-4.1, gpt-4o-mini");
    const links = await page.locator("[data-field=items] a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(links).to.have.members(items.body.jobs.map((j: any) => `/platform/runs/${j.job_id}`));
    expect(links).to.have.length(2);
    expect(JSON.parse(await page.locator("[data-field=answer]").innerText())).to.deep.equal(job.body);
    expect(await page.content()).to.not.include(secret);
    for (const link of links) {
      expect((await page.goto(link!))!.status()).to.equal(200);
      expect(await page.content()).to.not.include(secret);
    }
  });

  it("shows why a failed run failed, as its job read says", async () => {
    const user = await sessionUser(h.deps.ds, "runs-failed");
    const { key } = await createKey(h.deps.ds, { userId: user.id });
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Refused", llm_args: { sim_error: 400 } }, task: `fail-${randomUUID()}` },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
    expect(job.body.status).to.equal("failed");

    const page = await newPage({ sessionToken: user.token });
    expect((await page.goto(`/platform/runs/${res.body.job_id}`))!.status()).to.equal(200);
    expect(await page.locator("[data-field=status]").innerText()).to.equal("failed");
    expect(await page.locator("[data-field=error-code]").innerText()).to.equal(job.body.code);
    expect(await page.locator("[data-field=error-detail]").innerText()).to.equal(job.body.detail);
  });

  it("reloads a running run's page by itself, and stops once the run has ended", async () => {
    const user = await sessionUser(h.deps.ds, "runs-live");
    const { key } = await createKey(h.deps.ds, { userId: user.id });
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      headers: { Prefer: "respond-async" },
      body: {
        agent_config: { agent_name: "Slow", model_name: "gpt-4o-mini", llm_args: { sim_latency_ms: 5_000 } },
        task: `live-${randomUUID()}`,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const path = `/platform/runs/${res.body.job_id}`;

    const page = await newPage({ sessionToken: user.token });
    expect((await page.goto(path))!.status()).to.equal(200);
    expect(await page.locator("[data-field=status]").innerText()).to.be.oneOf(["queued", "running"]);
    expect(await refreshOf(page).getAttribute("content")).to.equal("3");
    // The browser reloads the page itself (no script runs): each reload is a new answer from the server.
    const reloads = page.url();
    await eventually(
      async () => {
        await page.waitForResponse((r) => r.url() === reloads, { timeout: 10_000 });
        await page.waitForLoadState("load");
        return (await page.locator("[data-field=status]").innerText()) === "success" ? true : undefined;
      },
      30_000,
      0,
    );
    expect(await refreshOf(page).count()).to.equal(0);
    expect(await page.locator("[data-field=live]").count()).to.equal(0);
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
    expect(job.body.status).to.equal("success");
  });

  it("answers someone else's run, an unknown id and a malformed one with a 404 page", async () => {
    const owner = await createKey(h.deps.ds);
    const theirs = await createRun(h.deps.ds, {
      kind: "agent",
      status: "succeeded",
      owner: { apiKeyId: owner.keyId, userId: owner.userId },
    });
    const stranger = await sessionUser(h.deps.ds, "runs-stranger");
    const page = await newPage({ sessionToken: stranger.token });
    for (const id of [theirs.job_id, randomUUID(), "not-a-run", "%00"]) {
      const res = await page.goto(`/platform/runs/${id}`);
      expect(res!.status(), id).to.equal(404);
      expect(await page.locator("h1").innerText(), id).to.equal("Not found");
      expect(await page.content(), id).to.not.include(theirs.job_id);
    }
  });

  it("sums a page's runs through indexes, reading only those runs and their steps", async function () {
    this.timeout(120_000);
    const { userId } = await createKey(h.deps.ds);
    const ROWS = 100_000;
    await h.deps.ds.query(
      `INSERT INTO runs (id, job_id, kind, user_id, status, request, queued_at)
       SELECT u, u::text, 'agent', $1, 'succeeded', '{}'::jsonb, now() - n * interval '1 second'
         FROM (SELECT gen_random_uuid() AS u, n FROM generate_series(1, $2) AS n) g`,
      [userId, ROWS],
    );
    await h.deps.ds.query(
      `INSERT INTO run_steps (run_id, seq, step_key, agent_name, role, input, output, model, input_tokens,
                              output_tokens, cost, started_at, finished_at)
       SELECT id, 0, '#0', 'A', 'assistant', '{}', '{}', 'gpt-4.1', 10, 5, 0.001, now(), now()
         FROM runs WHERE user_id = $1`,
      [userId],
    );
    await h.deps.ds.query("ANALYZE runs; ANALYZE run_steps");
    const page = await h.deps.ds.query(`SELECT job_id FROM runs WHERE user_id = $1 ORDER BY queued_at DESC LIMIT 20`, [
      userId,
    ]);
    const jobIds = page.map((r: { job_id: string }) => r.job_id);
    const [
      {
        "QUERY PLAN": [root],
      },
    ] = await h.deps.ds.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${LEDGER_SUMS_OF_RUNS}`, [jobIds, userId]);
    const plan = JSON.stringify(root);
    expect(plan).not.to.include("Seq Scan");
    expect(plan).to.include('"Index Name":"runs_job_id_key"');
    expect(plan).to.include('"Index Name":"runs_parent_idx"');
    const scanned = Math.max(...[...plan.matchAll(/"Actual Rows":(\d+)/g)].map((m) => Number(m[1])));
    expect(scanned, plan).to.be.at.most(20);
    // The suite's later tests read whole tables: they need not read these.
    await h.deps.ds.query(`DELETE FROM run_steps WHERE run_id IN (SELECT id FROM runs WHERE user_id = $1)`, [userId]);
    await h.deps.ds.query(`DELETE FROM runs WHERE user_id = $1`, [userId]);
  });

  it("asks an anonymous visitor to sign in", async () => {
    const page = await newPage();
    expect((await page.goto("/platform/runs"))!.status()).to.equal(401);
    expect((await page.goto(`/platform/runs/${randomUUID()}`))!.status()).to.equal(401);
  });
});
