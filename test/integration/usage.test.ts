import { expect } from "chai";
import { createKey } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

interface StepSums {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost: number;
}

/**
 * `GET /v1/usage`: an account's spend from the billing ledger, by day and model and by key. Each
 * key of an account sees the whole account, never a stranger's; the numbers are the ledger's own
 * sums (calls and their tokens from `run_steps`, charges from `run_charges`), and they add up to
 * the runs' bills.
 */
describe("GET /v1/usage", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  const agent = (key: string, model: string, task: string) =>
    request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Counter", model_name: model, max_loops: 2 }, task },
    });

  /** The ledger summed straight from `run_steps` and `run_charges`, for some runs' owner or key. */
  async function ledger(where: string, param: string): Promise<StepSums> {
    const [row] = await h.deps.ds.query(
      `SELECT count(*)::int AS calls, coalesce(sum(s.input_tokens), 0)::int AS input_tokens,
              coalesce(sum(s.output_tokens), 0)::int AS output_tokens,
              coalesce(sum(s.cost), 0)::float8 + (SELECT coalesce(sum(c.amount), 0)::float8
                FROM run_charges c JOIN runs r ON r.id = c.run_id WHERE ${where} = $1) AS cost
         FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE ${where} = $1`,
      [param],
    );
    return row;
  }

  function expectSums(actual: StepSums, expected: StepSums): void {
    expect(actual.calls).to.equal(expected.calls);
    expect(actual.input_tokens).to.equal(expected.input_tokens);
    expect(actual.output_tokens).to.equal(expected.output_tokens);
    expect(actual.cost).to.be.closeTo(expected.cost, 1e-9);
  }

  it("gives each key of an account the account's spend by day, model and key, and a stranger only theirs", async () => {
    const first = await h.newKey();
    const second = await createKey(h.deps.ds, { userId: first.userId, name: "second" });
    const idle = await createKey(h.deps.ds, { userId: first.userId, name: "idle" });
    const stranger = await h.newKey();
    const runs = await Promise.all([
      agent(first.key, "gpt-4.1", "Name a bee."),
      agent(first.key, "gpt-4.1-mini", "Name a flower."),
      agent(second.key, "gpt-4.1", "Name a hive."),
      agent(stranger.key, "gpt-4.1", "Name a wasp."),
    ]);
    for (const res of runs) expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const billed = runs.slice(0, 3).reduce((sum, res) => sum + res.body.usage.total_cost, 0);

    const account = await ledger("r.user_id", first.userId);
    expect(account.calls).to.be.greaterThan(3); // max_loops 2: two calls per run
    expect(account.cost).to.be.greaterThan(0);
    const [fromFirst, fromSecond] = await Promise.all([
      request(h.baseUrl, "GET", "/v1/usage", { key: first.key }),
      request(h.baseUrl, "GET", "/v1/usage?days=1", { key: second.key }),
    ]);
    for (const res of [fromFirst, fromSecond]) {
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectSums(res.body.totals, account);
      expect(res.body.totals.cost, "what the runs were billed, per-agent charges included").to.be.closeTo(billed, 1e-6);
      expect(res.body.totals.total_tokens).to.equal(account.input_tokens + account.output_tokens);
      const today = new Date().toISOString().slice(0, 10);
      expect(res.body.to).to.equal(today);
      expect(res.body.by_day.map((d: { date: string }) => d.date)).to.deep.equal([today, today, today]);
      expect(res.body.by_day.map((d: { model: string }) => d.model)).to.deep.equal([
        "fee:agent",
        "gpt-4.1",
        "gpt-4.1-mini",
      ]);
      for (const day of res.body.by_day) {
        const [row] = day.model.startsWith("fee:")
          ? await h.deps.ds.query(
              `SELECT 0 AS calls, 0 AS input_tokens, 0 AS output_tokens, sum(c.amount)::float8 AS cost
                 FROM run_charges c JOIN runs r ON r.id = c.run_id WHERE r.user_id = $1 AND 'fee:' || c.kind = $2`,
              [first.userId, day.model],
            )
          : await h.deps.ds.query(
              `SELECT count(*)::int AS calls, sum(s.input_tokens)::int AS input_tokens,
                      sum(s.output_tokens)::int AS output_tokens, sum(s.cost)::float8 AS cost
                 FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE r.user_id = $1 AND s.model = $2`,
              [first.userId, day.model],
            );
        expectSums(day, row);
      }
      const keys = new Map(res.body.by_key.map((k: { key_id: string }) => [k.key_id, k]));
      expect([...keys.keys()]).to.have.members([first.keyId, second.keyId, idle.keyId]);
      expectSums(keys.get(first.keyId) as StepSums, await ledger("r.api_key_id", first.keyId));
      expectSums(keys.get(second.keyId) as StepSums, await ledger("r.api_key_id", second.keyId));
      expect(keys.get(idle.keyId)).to.include({ calls: 0, cost: 0, last_used_at: null, name: "idle" });
      expect(keys.get(second.keyId)).to.include({ name: "second", last4: second.key.slice(-4) });
      expect((keys.get(first.keyId) as { last_used_at: string }).last_used_at).to.be.a("string");
      // The keys themselves never appear, not even the stranger's id.
      const text = JSON.stringify(res.body);
      for (const secret of [first.key, second.key, idle.key, stranger.key, stranger.keyId])
        expect(text).to.not.include(secret);
    }

    const fromStranger = await request(h.baseUrl, "GET", "/v1/usage", { key: stranger.key });
    expectSums(fromStranger.body.totals, await ledger("r.user_id", stranger.userId));
    expect(fromStranger.body.by_key.map((k: { key_id: string }) => k.key_id)).to.deep.equal([stranger.keyId]);
  });

  it("counts 30 days by default and refuses days outside 1–90 with the usual 422", async () => {
    const { key } = await h.newKey();
    const res = await request(h.baseUrl, "GET", "/v1/usage", { key });
    expect(res.body).to.include({ days: 30 });
    const from = new Date(`${res.body.from}T00:00:00Z`).getTime();
    expect((Date.parse(`${res.body.to}T00:00:00Z`) - from) / 86_400_000).to.equal(29);
    expect(res.body.totals).to.include({ calls: 0, cost: 0 });
    for (const days of ["0", "91", "1.5", "many"]) {
      const refused = await request(h.baseUrl, "GET", `/v1/usage?days=${days}`, { key });
      expect(refused.status, days).to.equal(422);
      expect(JSON.stringify(refused.body), days).to.include("days");
    }
    expect((await request(h.baseUrl, "GET", "/v1/usage")).status).to.equal(401);
  });
});
