import { expect } from "chai";
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { pagesBrowser } from "../../helpers/browser";
import { createKey } from "../../helpers/factories";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { sessionUser } from "../../helpers/platform-fixtures";

const amount = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 6 });
const dollars = (n: number) => (n < 0 ? `-$${amount(-n)}` : `$${amount(n)}`);
const tokens = (input: number, output: number) => `${amount(input)} in / ${amount(output)} out`;
const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Each row of a breakdown's table: its label and cost. */
async function costsOf(page: Page, id: string): Promise<Record<string, string>> {
  const rows = await page.locator(`[data-field="${id}-table"] tbody tr`).allInnerTexts();
  return Object.fromEntries(rows.map((row) => row.split("\t").map((c) => c.trim())).map((c) => [c[0], c[3]]));
}

/** The spend page and each key's spend on the keys page, against `GET /v1/usage` over the same window. */
describe("spend page", function () {
  this.timeout(120_000);
  let h: Harness;
  let user: { id: string; token: string };
  let keys: { key: string; keyId: string; name: string }[];
  before(async () => {
    h = await harness();
    user = await sessionUser(h.deps.ds, "spender");
    keys = [];
    for (const name of ["laptop", "server"])
      keys.push({ ...(await createKey(h.deps.ds, { userId: user.id, name })), name });
    // Two keys, two models; another account's run must count for nobody here.
    const runs: [string, string][] = [
      [keys[0].key, "gpt-4.1"],
      [keys[1].key, "gpt-4o-mini"],
      [keys[1].key, "gpt-4.1"],
      [(await createKey(h.deps.ds)).key, "gpt-4o"],
    ];
    for (const [key, model] of runs) {
      const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
        key,
        body: { agent_config: { agent_name: "Spender", model_name: model }, task: `spend-${randomUUID()}` },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  });
  const { newPage } = pagesBrowser(() => h.platformUrl);

  /** The page's figures against `GET /v1/usage?days=<days>`'s, which ends today as the page's window does. */
  async function expectEqualsUsage(page: Page, days: number) {
    const usage = await request(h.baseUrl, "GET", `/v1/usage?days=${days}`, { key: keys[0].key });
    expect(usage.status).to.equal(200);
    const { totals } = usage.body;
    expect(totals.cost).to.be.greaterThan(0);
    expect(await page.locator("[data-field=total-cost]").innerText()).to.equal(dollars(totals.cost));
    expect(await page.locator("[data-field=total-calls]").innerText()).to.equal(String(totals.calls));
    expect(await page.locator("[data-field=total-tokens]").innerText()).to.equal(
      tokens(totals.input_tokens, totals.output_tokens),
    );
    const byKey = await costsOf(page, "by-key");
    expect(byKey).to.deep.equal(
      Object.fromEntries(usage.body.by_key.map((k: any) => [`${k.name} (sk-…${k.last4})`, dollars(k.cost)])),
    );
    const models = new Map<string, number>();
    for (const d of usage.body.by_day) models.set(d.model, (models.get(d.model) ?? 0) + d.cost);
    const byModel = await costsOf(page, "by-model");
    expect(Object.keys(byModel).sort()).to.deep.equal([...models.keys()].sort());
    expect(Object.keys(byModel)).to.include.members(["gpt-4.1", "gpt-4o-mini"]).and.not.include("gpt-4o");
    for (const [model, cost] of models) expect(byModel[model], model).to.equal(dollars(cost));
    const byDay = await costsOf(page, "by-day");
    expect(Object.keys(byDay)).to.have.length(days);
    expect(byDay[utcDay(Date.now())]).to.equal(dollars(totals.cost));
  }

  it("shows the last 30 days by day, key and model, with the totals GET /v1/usage gives", async () => {
    const page = await newPage({ sessionToken: user.token });
    expect((await page.goto("/platform/spend"))!.status()).to.equal(200);
    expect(await page.locator("#spend-start").inputValue()).to.equal(utcDay(Date.now() - 29 * DAY_MS));
    expect(await page.locator("#spend-end").inputValue()).to.equal(utcDay(Date.now()));
    await expectEqualsUsage(page, 30);
  });

  it("takes another window of whole UTC days, counted as GET /v1/usage counts it", async () => {
    const page = await newPage({ sessionToken: user.token });
    const today = utcDay(Date.now());
    expect((await page.goto(`/platform/spend?start=${today}&end=${today}`))!.status()).to.equal(200);
    await expectEqualsUsage(page, 1);
    const before = utcDay(Date.now() - 10 * DAY_MS);
    expect((await page.goto(`/platform/spend?start=${before}&end=${utcDay(Date.now() - DAY_MS)}`))!.status()).to.equal(
      200,
    );
    expect(await page.locator("[data-field=total-cost]").innerText()).to.equal("$0");
  });

  it("answers a window it cannot show with a 400 page saying why", async () => {
    const page = await newPage({ sessionToken: user.token });
    const tomorrow = utcDay(Date.now() + DAY_MS);
    const cases = [
      "start=2025-02-30&end=2025-03-01",
      "start=yesterday",
      "start=2025-03-02&end=2025-03-01",
      `end=${tomorrow}`,
      "start=2025-01-01&end=2025-06-01",
      "start=2025-01-01&start=2025-01-02",
      "days=7",
    ];
    for (const query of cases) {
      const res = await page.goto(`/platform/spend?${query}`);
      expect(res!.status(), query).to.equal(400);
      expect(await page.locator("[data-field=message]").innerText(), query).to.not.equal("");
    }
  });

  it("shows each key's spend on the keys page, as GET /v1/usage counts it per key", async () => {
    const usage = await request(h.baseUrl, "GET", "/v1/usage?days=30", { key: keys[0].key });
    const page = await newPage({ sessionToken: user.token });
    expect((await page.goto("/platform/api-keys"))!.status()).to.equal(200);
    for (const key of keys) {
      const listed = usage.body.by_key.find((k: any) => k.key_id === key.keyId);
      expect(listed.cost).to.be.greaterThan(0);
      const cell = page.locator(`tr[data-key-id="${key.keyId}"] [data-field="key-spend"]`);
      expect(await cell.innerText()).to.equal(dollars(listed.cost));
    }
  });

  it("asks an anonymous visitor to sign in", async () => {
    const page = await newPage();
    expect((await page.goto("/platform/spend"))!.status()).to.equal(401);
  });
});
