import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { config } from "../../shared/config";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { searchServerForSuite } from "../helpers/search-server";
import { agent, postSwarm } from "../helpers/swarm";

/** `GET /v1/jobs/{job_id}/steps`: each call and charge of a run, adding up to its bill. */
describe("GET /v1/jobs/{job_id}/steps", function () {
  this.timeout(60_000);
  let h: Harness;
  searchServerForSuite();

  before(async () => {
    h = await harness();
  });

  const steps = (key: string, jobId: string, query = "") =>
    request(h.baseUrl, "GET", `/v1/jobs/${jobId}/steps${query}`, { key });

  /** Every step of a run, following `next_cursor` `limit` at a time. */
  async function allSteps(key: string, jobId: string, limit: number) {
    const found: any[] = [];
    let cursor: string | null = null;
    let body: any;
    for (let pages = 0; pages < 100; pages++) {
      const res = await steps(key, jobId, `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      body = res.body;
      found.push(...body.steps);
      cursor = body.next_cursor;
      if (!cursor) return { ...body, steps: found };
    }
    throw new Error("more than 100 pages");
  }

  /** The bill in whole millionths, the unit bills are rounded to. */
  const micros = (dollars: number) => Math.round(dollars * 1e6);
  const sumMicros = (lines: { cost: number }[]) => lines.reduce((sum, line) => sum + micros(line.cost), 0);

  /** The account's usage report total, in millionths. */
  const usageMicros = async (key: string) => {
    const res = await request(h.baseUrl, "GET", "/v1/usage?days=1", { key });
    expect(res.status).to.equal(200);
    return micros(res.body.totals.cost);
  };

  it("a single agent: its calls and its per-agent charge add up to the bill its answer, job read and usage show", async () => {
    const { key } = await h.newKey();
    const ran = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Stepper", model_name: "gpt-4o-mini", max_loops: 2 }, task: "two turns" },
    });
    expect(ran.status, JSON.stringify(ran.body)).to.equal(200);
    const bill = ran.body.usage.total_cost;
    const read = await request(h.baseUrl, "GET", `/v1/jobs/${ran.body.job_id}`, { key });
    expect(read.body.usage.total_cost).to.equal(bill);

    const res = await steps(key, ran.body.job_id);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = res.body.steps.filter((s: any) => s.type === "llm");
    expect(calls).to.have.length(2);
    for (const call of calls) {
      expect(call).to.include({ job_id: ran.body.job_id, agent: "Stepper", model: "gpt-4o-mini", status: "finished" });
      expect(call.input_tokens).to.be.greaterThan(0);
      expect(call.output_tokens).to.be.greaterThan(0);
      expect(call.latency_ms).to.equal(Date.parse(call.finished_at) - Date.parse(call.started_at));
    }
    expect(Date.parse(calls[1].finished_at)).to.be.at.least(Date.parse(calls[0].finished_at));
    const charges = res.body.steps.filter((s: any) => s.type === "charge");
    expect(charges.map((c: any) => [c.charge, c.agent, c.cost])).to.deep.equal([
      ["agent", "Stepper", config.pricing.perAgent],
    ]);
    expect(res.body.total_cost).to.equal(bill);
    expect(sumMicros(res.body.steps)).to.equal(micros(bill));
    expect(await usageMicros(key)).to.equal(micros(bill));
  });

  it("a swarm: every agent's calls and charges add up to billing_info.total_cost", async () => {
    const { key } = await h.newKey();
    const res = await postSwarm(h, key, {
      swarm_type: "SequentialWorkflow",
      task: "steps of a swarm",
      agents: [agent("First"), agent("Second"), agent("Third")],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const bill = res.body.usage.billing_info.total_cost;
    const listed = await allSteps(key, res.body.job_id, 100);
    expect(listed.steps.filter((s: any) => s.type === "llm").map((s: any) => s.agent)).to.deep.equal([
      "First",
      "Second",
      "Third",
    ]);
    expect(listed.steps.filter((s: any) => s.charge === "agent")).to.have.length(3);
    expect(listed.total_cost).to.equal(bill);
    expect(sumMicros(listed.steps)).to.equal(micros(bill));
    expect(await usageMicros(key)).to.equal(micros(bill));
    // Paged one step at a time, the same steps in the same order.
    const paged = await allSteps(key, res.body.job_id, 1);
    expect(paged.steps).to.deep.equal(listed.steps);
    expect(paged.total_steps).to.equal(listed.steps.length);
  });

  it("a run with a tool fee shows the tool call and its fee, and still adds up", async () => {
    const { key } = await h.newKey();
    const ran = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: { agent_name: "Searcher", model_name: "gpt-4o-mini", max_loops: 1 },
        task: `Look this up: steps-${randomUUID()}`,
        tools_enabled: ["auto_search"],
      },
    });
    expect(ran.status, JSON.stringify(ran.body)).to.equal(200);
    const bill = ran.body.usage.total_cost;
    const res = await steps(key, ran.body.job_id);
    expect(res.body.steps.filter((s: any) => s.type === "tool").map((s: any) => s.model)).to.deep.equal([
      "tool:auto_search",
    ]);
    const fees = res.body.steps.filter((s: any) => s.type === "charge").map((s: any) => [s.charge, s.cost]);
    expect(fees).to.deep.include(["tool", config.builtinTools.fees.auto_search]);
    expect(res.body.total_cost).to.equal(bill);
    expect(sumMicros(res.body.steps)).to.equal(micros(bill));
  });

  it("a batch answers its items' steps in item order, adding up to the batch's bill", async () => {
    const { key } = await h.newKey();
    const ran = await request(h.baseUrl, "POST", "/v1/agent/batch/completions", {
      key,
      body: [
        { agent_config: { agent_name: "Item0", model_name: "gpt-4o-mini" }, task: "first item" },
        { agent_config: { agent_name: "Item1", model_name: "gpt-4o-mini" }, task: "second item" },
      ],
    });
    expect(ran.status, JSON.stringify(ran.body)).to.equal(200);
    const [parent] = await h.deps.ds.query(`SELECT usage FROM runs WHERE job_id = $1`, [ran.body.batch_id]);
    const listed = await allSteps(key, ran.body.batch_id, 100);
    expect(listed.steps.filter((s: any) => s.type === "llm").map((s: any) => s.agent)).to.deep.equal([
      "Item0",
      "Item1",
    ]);
    expect(new Set(listed.steps.map((s: any) => s.job_id))).to.deep.equal(
      new Set(ran.body.results.map((r: any) => r.job_id)),
    );
    expect(listed.total_cost).to.equal(parent.usage.total_cost);
    expect(sumMicros(listed.steps)).to.equal(micros(parent.usage.total_cost));
  });

  it("is 404 for another account's run, 400 for a foreign cursor, 422 for a hostile query", async () => {
    const owner = await h.newKey();
    const stranger = await h.newKey();
    const ran = await postSwarm(h, owner.key, {
      swarm_type: "SequentialWorkflow",
      task: "guarded",
      agents: [agent("A"), agent("B")],
    });
    const other = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: owner.key,
      body: { agent_config: { agent_name: "Other" }, task: "another run" },
    });
    expect((await steps(stranger.key, ran.body.job_id)).status).to.equal(404);
    expect((await steps(owner.key, randomUUID())).status).to.equal(404);
    expect((await steps(owner.key, "not-a-job")).status).to.equal(404);
    const cursor = (await steps(owner.key, ran.body.job_id, "?limit=1")).body.next_cursor;
    expect(cursor).to.be.a("string");
    for (const [caller, jobId, query] of [
      [owner.key, other.body.job_id, `?cursor=${cursor}`], // another run's cursor
      [owner.key, ran.body.job_id, "?cursor=bm90LWEtY3Vyc29y.AAAAAAAAAAAAAAAAAAAAAA"],
      [owner.key, ran.body.job_id, "?cursor=x"],
    ]) {
      const res = await steps(caller, jobId, query);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.code).to.equal("INVALID_CURSOR");
    }
    for (const query of ["?limit=0", "?limit=501", "?limit=x", "?limit=1&limit=2", "?cursor=a&cursor=b", "?page=2"]) {
      const res = await steps(owner.key, ran.body.job_id, query);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(422);
    }
  });
});
