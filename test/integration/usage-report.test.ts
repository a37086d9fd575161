import { expect } from "chai";
import type { DataSource } from "typeorm";
import type { RunKind } from "../../shared/db/entities/run.entity";
import { createRun } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

type Owner = { apiKeyId: string; userId: string };

/** A finished run queued at `at` with one stored step per `[model, input, output, cost]`, finished the same minute. */
async function runWithSteps(
  ds: DataSource,
  owner: Owner,
  kind: RunKind,
  at: string,
  steps: [string, number, number, number][],
  extra: { parentId?: string } = {},
): Promise<string> {
  const run = await createRun(ds, {
    kind,
    owner,
    status: "succeeded",
    queuedAt: new Date(at),
    parentId: extra.parentId,
  });
  for (const [seq, [model, input, output, cost]] of steps.entries()) {
    await ds.query(
      `INSERT INTO run_steps (run_id, seq, step_key, agent_name, role, input, output, model, input_tokens, output_tokens,
                              cost, started_at, finished_at)
       VALUES ($1, $2, $3, 'A', 'assistant', '[]', '{}', $4, $5, $6, $7, $8, $8)`,
      [run.id, seq, `s${seq}`, model, input, output, cost, new Date(at)],
    );
  }
  return run.id;
}

/**
 * `GET /v1/usage/report`: an account's usage over whole UTC days, from its runs (completion calls)
 * and the step ledger (LLM calls, tokens, cost), by day, model and kind, with totals that add up;
 * the hosted shape (`results`, `period`, `start_date`, `end_date`) and every bad parameter at once.
 */
describe("GET /v1/usage/report", () => {
  let h: Harness;
  let a: { key: string; userId: string; keyId: string };
  const report = (key: string, query = "") => request(h.baseUrl, "GET", `/v1/usage/report${query}`, { key });

  before(async () => {
    h = await harness();
    a = await h.newKey();
    const ds = h.deps.ds;
    const owner = { apiKeyId: a.keyId, userId: a.userId };
    await runWithSteps(ds, owner, "agent", "2026-03-01T10:00:00Z", [
      ["m-one", 100, 10, 0.25],
      ["m-two", 50, 5, 0.125],
    ]);
    // A batch on the 2nd: its two items count, the parent does not; a token launch is no completion.
    const batch = await createRun(ds, {
      kind: "agent_batch",
      owner,
      status: "succeeded",
      queuedAt: new Date("2026-03-02T08:00:00Z"),
    });
    await runWithSteps(ds, owner, "agent", "2026-03-02T08:00:00Z", [["m-one", 10, 1, 0.5]], { parentId: batch.id });
    await runWithSteps(ds, owner, "agent", "2026-03-02T08:00:00Z", [], { parentId: batch.id });
    await createRun(ds, {
      kind: "token_launch",
      owner,
      status: "succeeded",
      queuedAt: new Date("2026-03-02T09:00:00Z"),
    });
    await runWithSteps(ds, owner, "swarm", "2026-03-03T23:59:00Z", [
      ["m-two", 7, 3, 0.0625],
      ["m-two", 1, 1, 0.0625],
    ]);
    // Outside the window on either side.
    await runWithSteps(ds, owner, "agent", "2026-02-28T23:59:59Z", [["m-one", 1000, 1000, 9]]);
    await runWithSteps(ds, owner, "agent", "2026-03-04T00:00:00Z", [["m-one", 1000, 1000, 9]]);
  });

  it("sums a custom window by day, model and kind, every breakdown adding up to the totals", async () => {
    const res = await report(a.key, "?start_date=2026-03-01&end_date=2026-03-03&period=week");
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const sums = (llm_calls: number, input_tokens: number, output_tokens: number, total_cost: number) => ({
      llm_calls,
      input_tokens,
      output_tokens,
      total_tokens: input_tokens + output_tokens,
      total_cost,
    });
    expect(res.body).to.deep.include({
      success: true,
      period: "custom",
      start_date: "2026-03-01",
      end_date: "2026-03-03",
    });
    expect(res.body.results).to.deep.equal([
      {
        day: "2026-03-01",
        request_count: 1,
        ...sums(2, 150, 15, 0.375),
        by_model: [
          { model: "m-one", ...sums(1, 100, 10, 0.25) },
          { model: "m-two", ...sums(1, 50, 5, 0.125) },
        ],
      },
      {
        day: "2026-03-02",
        request_count: 2,
        ...sums(1, 10, 1, 0.5),
        by_model: [{ model: "m-one", ...sums(1, 10, 1, 0.5) }],
      },
      {
        day: "2026-03-03",
        request_count: 1,
        ...sums(2, 8, 4, 0.125),
        by_model: [{ model: "m-two", ...sums(2, 8, 4, 0.125) }],
      },
    ]);
    expect(res.body.by_model).to.deep.equal([
      { model: "m-one", ...sums(2, 110, 11, 0.75) },
      { model: "m-two", ...sums(3, 58, 9, 0.25) },
    ]);
    expect(res.body.by_kind).to.deep.equal([
      { kind: "agent", request_count: 3, ...sums(3, 160, 16, 0.875) },
      { kind: "swarm", request_count: 1, ...sums(2, 8, 4, 0.125) },
    ]);
    expect(res.body.totals).to.deep.equal({ request_count: 4, ...sums(5, 168, 20, 1) });
  });

  it("reads `period` as whole UTC days ending today, a month by default", async () => {
    const run = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: a.key,
      body: { agent_config: { agent_name: "Counter", model_name: "gpt-4o-mini", max_loops: 2 }, task: "Count." },
    });
    expect(run.status, JSON.stringify(run.body)).to.equal(200);
    const [ledger] = await h.deps.ds.query(
      `SELECT count(*)::int AS llm_calls, sum(s.input_tokens)::int AS input_tokens, sum(s.output_tokens)::int AS output_tokens,
              sum(s.cost)::float8 + (SELECT sum(c.amount)::float8 FROM run_charges c WHERE c.run_id = $1) AS total_cost
         FROM run_steps s WHERE s.run_id = $1`,
      [run.body.job_id],
    );
    const today = new Date().toISOString().slice(0, 10);
    const daysAgo = (n: number) => new Date(Date.parse(today) - n * 86_400_000).toISOString().slice(0, 10);
    for (const [query, period, start] of [
      ["", "month", daysAgo(29)],
      ["?period=week", "week", daysAgo(6)],
      ["?period=day", "day", today],
    ]) {
      const res = await report(a.key, query);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ period, start_date: start, end_date: today });
      expect(res.body.results.map((d: { day: string }) => d.day)).to.deep.equal([today]); // the March fixtures are long gone
      expect(res.body.totals).to.deep.include({ request_count: 1, llm_calls: ledger.llm_calls });
      expect(res.body.totals.input_tokens).to.equal(ledger.input_tokens);
      expect(res.body.totals.output_tokens).to.equal(ledger.output_tokens);
      expect(res.body.totals.total_cost).to.be.closeTo(ledger.total_cost, 1e-9);
      expect(res.body.totals.total_cost, "the run's bill").to.be.closeTo(run.body.usage.total_cost, 1e-6);
      expect(res.body.results[0].by_model.map((m: { model: string }) => m.model)).to.deep.equal([
        "fee:agent",
        "gpt-4o-mini",
      ]);
    }
  });

  it("shows another account only its own usage", async () => {
    const b = await h.newKey();
    const res = await report(b.key, "?start_date=2026-03-01&end_date=2026-03-03");
    expect(res.status).to.equal(200);
    expect(res.body.results).to.deep.equal([]);
    expect(res.body.by_kind).to.deep.equal([]);
    expect(res.body.totals).to.deep.equal({
      request_count: 0,
      llm_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      total_cost: 0,
    });
  });

  it("refuses bad parameters with 422, every problem at once", async () => {
    const problems = async (query: string) => {
      const res = await report(a.key, query);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(422);
      return res.body.detail.map((d: { loc: string[]; msg: string }) => [d.loc.join("."), d.msg]);
    };
    const all = await problems("?period=year&start_date=2026-02-30&end_date=March");
    expect(all.map(([loc]: string[]) => loc)).to.deep.equal(["query.period", "query.start_date", "query.end_date"]);
    expect(all[1][1]).to.include("not a calendar day");
    expect(all[2][1]).to.include("YYYY-MM-DD");
    expect((await problems("?start_date=2026-03-01"))[0][1]).to.include("go together");
    expect((await problems("?end_date=2026-03-01"))[0][1]).to.include("go together");
    const reversed = await problems("?period=year&start_date=2026-03-05&end_date=2026-03-01");
    expect(reversed.map(([loc]: string[]) => loc)).to.deep.equal(["query.period", "query.end_date"]);
    expect(reversed[1][1]).to.include("before start_date");
    expect((await problems("?start_date=2025-01-01&end_date=2026-01-02"))[0][1]).to.include("at most 366 days");
    const year = await report(a.key, "?start_date=2025-01-02&end_date=2026-01-02");
    expect(year.status, "366 days is allowed").to.equal(200);
  });
});
