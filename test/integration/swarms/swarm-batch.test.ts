import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { eventually, request } from "../../helpers/http";
import { agent, callerOf, callsMentioning, uniqueMarker } from "../../helpers/swarm";

const SWARM_BATCH = "/v1/swarm/batch/completions";

const SUCCESS_KEYS = ["status", "job_id", "swarm_name", "swarm_type", "result", "usage", "execution_time"];

function expectSuccess(item: any, name: string, type: string, roles: string[]) {
  expect(item, JSON.stringify(item)).to.include({ status: "success", swarm_name: name, swarm_type: type });
  expect(Object.keys(item).sort()).to.deep.equal([...SUCCESS_KEYS].sort());
  expect(item.job_id).to.be.a("string");
  expect(item.result.map((t: any) => t.role)).to.deep.equal(roles);
  expect(item.usage).to.include.keys("input_tokens", "output_tokens", "total_tokens", "billing_info");
  expect(item.usage.billing_info.cost_breakdown.num_agents).to.equal(new Set(roles).size);
  expect(item.execution_time).to.be.a("number");
}

function expectError(item: any, name: string, detail: RegExp) {
  expect(item, JSON.stringify(item)).to.include({ status: "error", swarm_name: name });
  expect(item.detail).to.be.a("string").and.match(detail);
  expect(item).to.not.have.any.keys("result", "usage");
}

describe("POST /v1/swarm/batch/completions", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  /** A mix: two valid items, one failing at run time, one failing the whole-request rules, one failing the schema. */
  function mixedBatch(marker: string) {
    return [
      {
        name: "seq-ok",
        swarm_type: "SequentialWorkflow",
        agents: [agent("Drafter"), agent("Reviewer")],
        task: `seq-${marker}`,
      },
      {
        name: "fails-at-run",
        swarm_type: "SequentialWorkflow",
        agents: [agent("Fine"), agent("Crasher", { llm_args: { sim_error: 400 } })],
        task: `crash-${marker}`,
      },
      {
        name: "bad-debate",
        swarm_type: "DebateWithJudge",
        agents: [agent("Pro"), agent("Con")],
        task: `debate-${marker}`,
      },
      {
        name: "conc-ok",
        swarm_type: "ConcurrentWorkflow",
        agents: [agent("Left"), agent("Right")],
        task: `conc-${marker}`,
      },
      { name: "bad-schema", max_loops: 0, agents: [agent("Nobody")], task: `schema-${marker}` },
    ];
  }

  it("answers 200 with every item in request order: results for the ones that ran, errors in place for the others", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("batch");
    const res = await request(h.baseUrl, "POST", SWARM_BATCH, { key, body: mixedBatch(marker) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.be.an("array").with.length(5);
    const [seq, crash, debate, conc, schema] = res.body;
    expectSuccess(seq, "seq-ok", "SequentialWorkflow", ["Drafter", "Reviewer"]);
    expectError(crash, "fails-at-run", /Crasher/);
    expectError(debate, "bad-debate", /DebateWithJudge.*exactly 3 agents/);
    expectSuccess(conc, "conc-ok", "ConcurrentWorkflow", ["Left", "Right"]);
    expectError(schema, "bad-schema", /max_loops/);
    expect(seq.job_id).to.not.equal(conc.job_id);

    // Items that failed validation made no LLM call; the run-time failure stopped at its agent.
    expect(callsMentioning(h, `debate-${marker}`)).to.have.length(0);
    expect(callsMentioning(h, `schema-${marker}`)).to.have.length(0);
    expect(callsMentioning(h, `crash-${marker}`).map(callerOf)).to.deep.equal(["Fine", "Crasher"]);

    // Each ran item is a job of its own, readable later.
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${seq.job_id}`, { key });
    expect(job.status).to.equal(200);
    expect(job.body).to.include({ status: "success", swarm_type: "SequentialWorkflow", swarm_name: "seq-ok" });
    expect(job.body.output).to.deep.equal(seq.result);
  });

  it("refuses a batch of more than 100 items with 400, running none", async () => {
    const marker = uniqueMarker("too-many");
    const items = Array.from({ length: 101 }, (_, i) => ({
      swarm_type: "SequentialWorkflow",
      agents: [agent("A")],
      task: `${marker}-${i}`,
    }));
    const res = await request(h.baseUrl, "POST", SWARM_BATCH, { key, body: items });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.detail).to.be.a("string").and.include("101");
    expect(res.body.code).to.equal("BATCH_TOO_LARGE");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });

  it("accepts exactly 100 items", async function () {
    this.timeout(60_000);
    const marker = uniqueMarker("hundred");
    const items = Array.from({ length: 100 }, (_, i) => ({
      name: `item-${i}`,
      swarm_type: "SequentialWorkflow",
      agents: [agent("A")],
      task: `${marker}-${i}`,
    }));
    // Every item counts against the rate limits: 100 items are a free key's whole minute, so a key of their own.
    const { key: fresh } = await h.newKey();
    const res = await request(h.baseUrl, "POST", SWARM_BATCH, { key: fresh, body: items });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(200);
    expect(res.body.map((r: any) => r.swarm_name)).to.deep.equal(items.map((i) => i.name));
    expect(res.body.every((r: any) => r.status === "success")).to.equal(true);
  });

  it("with Prefer: respond-async answers 202 at once, and GET /v1/jobs/{id} later holds every item in request order", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("batch-async");
    const accepted = await request(h.baseUrl, "POST", SWARM_BATCH, {
      key,
      headers: { prefer: "respond-async" },
      body: mixedBatch(marker),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    expect(accepted.body.job_id).to.be.a("string");
    expect(accepted.headers.get("location")).to.equal(`/v1/jobs/${accepted.body.job_id}`);

    const done = await eventually(async () => {
      const res = await request(h.baseUrl, "GET", `/v1/jobs/${accepted.body.job_id}`, { key });
      expect(res.status).to.equal(200);
      return ["queued", "running"].includes(res.body.status) ? undefined : res.body;
    }, 20_000);
    expect(done.status).to.equal("success");
    const results = done.results;
    expect(results, JSON.stringify(results)).to.be.an("array").with.length(5);
    expectSuccess(results[0], "seq-ok", "SequentialWorkflow", ["Drafter", "Reviewer"]);
    expectError(results[1], "fails-at-run", /Crasher/);
    expectError(results[2], "bad-debate", /DebateWithJudge.*exactly 3 agents/);
    expectSuccess(results[3], "conc-ok", "ConcurrentWorkflow", ["Left", "Right"]);
    expectError(results[4], "bad-schema", /max_loops/);
  });

  it("with Prefer: respond-async and only valid items, GET /v1/jobs/{id} returns their results in request order", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("batch-async-valid");
    const body = [
      {
        name: "slow-first",
        swarm_type: "SequentialWorkflow",
        agents: [agent("Slow", { llm_args: { sim_latency_ms: 400 } })],
        task: `a-${marker}`,
      },
      { name: "fast-second", swarm_type: "SequentialWorkflow", agents: [agent("Fast")], task: `b-${marker}` },
    ];
    const accepted = await request(h.baseUrl, "POST", SWARM_BATCH, { key, headers: { prefer: "respond-async" }, body });
    expect(accepted.status).to.equal(202);
    const done = await eventually(async () => {
      const res = await request(h.baseUrl, "GET", `/v1/jobs/${accepted.body.job_id}`, { key });
      return ["queued", "running"].includes(res.body.status) ? undefined : res.body;
    }, 20_000);
    expect(done.status).to.equal("success");
    expect(done.results.map((r: any) => r.swarm_name)).to.deep.equal(["slow-first", "fast-second"]);
    expectSuccess(done.results[0], "slow-first", "SequentialWorkflow", ["Slow"]);
    expectSuccess(done.results[1], "fast-second", "SequentialWorkflow", ["Fast"]);
  });
});
