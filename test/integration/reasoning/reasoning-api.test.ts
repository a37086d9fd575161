import { expect } from "chai";
import type SwarmsClient from "../../vendor/swarms-ts/src/index";
import { harness, type Harness } from "../../helpers/harness";
import { eventually, request } from "../../helpers/http";
import { postReasoning } from "../../helpers/reasoning";
import { callsMentioning, uniqueMarker } from "../../helpers/swarm";
import { parseSse } from "../../helpers/sse";
import { expectSdkType, swarmsClient } from "../../helpers/swarms-sdk";

const ALL_NAMES = [
  "reasoning-duo",
  "self-consistency",
  "ire",
  "reasoning-agent",
  "consistency-agent",
  "ire-agent",
  "ReflexionAgent",
  "GKPAgent",
  "AgentJudge",
];

describe("reasoning agents: the endpoints", () => {
  let h: Harness;
  let key: string;
  let client: SwarmsClient;
  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    client = swarmsClient(h.baseUrl, key);
  });

  it("GET /v1/reasoning-agent/types lists the nine names, each with what it does and the type it runs as", async () => {
    const res = await request(h.baseUrl, "GET", "/v1/reasoning-agent/types", { key });
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal("success");
    expect(res.body.agent_types).to.deep.equal(ALL_NAMES);
    expect(Object.keys(res.body.types)).to.deep.equal(ALL_NAMES);
    expect(res.body.types["reasoning-agent"].runs_as).to.equal("reasoning-duo");
    expect(res.body.types["consistency-agent"].runs_as).to.equal("self-consistency");
    expect(res.body.types["ire-agent"].runs_as).to.equal("ire");
    expect(res.body.types.GKPAgent).to.include({ runs_as: "GKPAgent" });
    expect(res.body.types.GKPAgent.fields).to.include("num_knowledge_items");
    expect(res.body.types.ReflexionAgent.fields).to.include("memory_capacity");
    for (const name of ALL_NAMES) expect(res.body.types[name].description, name).to.be.a("string").that.is.not.empty;
  });

  it("the SDK's reasoningAgents.listTypes and createCompletion answer with their own response types", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("sdk-reasoning");
    // Both calls before any check: building the SDK's schemas blocks this process (and the
    // in-process API) for seconds, long enough for a kept-alive connection to be closed under a request.
    const types = await client.reasoningAgents.listTypes();
    const answer = await client.reasoningAgents.createCompletion({
      agent_name: "SDK Reasoner",
      swarm_type: "consistency-agent",
      num_samples: 2,
      task: marker,
    });
    expectSdkType("ReasoningAgentListTypesResponse", types, "reasoning-agents");
    const body = expectSdkType<Record<string, any>>(
      "ReasoningAgentCreateCompletionResponse",
      answer,
      "reasoning-agents",
    );
    expect(body).to.include({ swarm_type: "self-consistency", agent_type: "consistency-agent", success: true });
    expect(body.name).to.equal("SDK Reasoner");
    expect(callsMentioning(h, marker)).to.have.length(3);
  });

  it("answers the hosted shape with the swarm's usage, and GET /v1/jobs/{id} gives the same answer", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("shape");
    const res = await postReasoning(h, key, {
      agent_name: "Shape",
      description: "checks the answer's shape",
      swarm_type: "reasoning-agent",
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const body = res.body;
    expect(body).to.include({
      id: body.job_id,
      status: "success",
      success: true,
      name: "Shape",
      agent_name: "Shape",
      description: "checks the answer's shape",
      swarm_type: "reasoning-duo",
      agent_type: "reasoning-agent",
      number_of_agents: 2,
    });
    expect(body.outputs).to.deep.equal(body.output);
    expect(Date.parse(body.timestamp)).to.be.closeTo(Date.now(), 60_000);
    expect(body.usage.total_tokens)
      .to.equal(body.usage.input_tokens + body.usage.output_tokens)
      .and.above(0);
    expect(body.usage.billing_info.cost_breakdown.num_agents).to.equal(2);
    expect(body.usage.billing_info.total_cost).to.be.above(0);
    // The description reaches every call.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(2);
    for (const call of calls) expect(call.messages[0].content).to.include("Purpose: checks the answer's shape");

    const job = await request(h.baseUrl, "GET", `/v1/jobs/${body.job_id}`, { key });
    expect(job.status).to.equal(200);
    expect(job.body).to.deep.equal({ ...body, execution_time: job.body.execution_time });
  });

  it("with Prefer: respond-async answers 202 at once, and the run is read later from GET /v1/jobs/{id}", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("async");
    const res = await postReasoning(
      h,
      key,
      { swarm_type: "AgentJudge", task: marker, llm_args: { sim_latency_ms: 300 } },
      { prefer: "respond-async" },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body.status).to.equal("queued");
    const done = await eventually(async () => {
      const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
      return job.body.status === "success" ? job.body : undefined;
    });
    expect(done).to.include({ job_id: res.body.job_id, swarm_type: "AgentJudge", success: true });
    expect(done.output).to.have.length(1);
  });

  it("refuses a body with every problem at once (422): no task, an unknown type, counts past their bounds, an unknown output type", async () => {
    const res = await postReasoning(h, key, {
      swarm_type: "reasoning_duo",
      num_samples: 17,
      max_loops: 11,
      memory_capacity: 0,
      num_knowledge_items: 100,
      output_type: "html",
    });
    expect(res.status).to.equal(422);
    const fields = res.body.detail.map((d: any) => d.loc.at(-1));
    expect(fields).to.have.members([
      "task",
      "swarm_type",
      "num_samples",
      "max_loops",
      "memory_capacity",
      "num_knowledge_items",
      "output_type",
    ]);
  });

  it("refuses a blank task and a null one (422) before anything runs", async () => {
    for (const task of ["   ", null]) {
      const res = await postReasoning(h, key, { swarm_type: "AgentJudge", task });
      expect(res.status, String(task)).to.equal(422);
      expect(res.body.detail.map((d: any) => d.loc.at(-1))).to.deep.equal(["task"]);
    }
  });

  it("with stream: true answers the swarm's frames: metadata, each role agent's turn, usage, end", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("stream");
    const res = await fetch(`${h.baseUrl}/v1/reasoning-agent/completions`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ agent_name: "Streamer", swarm_type: "reasoning-duo", task: marker, stream: true }),
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^text\/event-stream/);
    const frames = parseSse(await res.text());
    expect(frames[0].data).to.include({ type: "metadata", swarm_name: "Streamer", swarm_type: "reasoning-duo" });
    const starts = frames.filter((f) => f.event === "agent_start").map((f) => f.data.agent);
    expect(starts).to.deep.equal(["Streamer-reasoner", "Streamer"]);
    expect(frames.filter((f) => f.event === "chunk").length).to.be.above(0);
    expect(frames.at(-2)?.event).to.equal("usage");
    expect(frames.at(-1)?.event).to.equal("end");
    expect(frames.at(-1)?.data.status).to.equal("success");
  });

  it("an Idempotency-Key repeated with the same body answers the first run again without running it twice", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("idempotent");
    const body = { swarm_type: "AgentJudge", task: marker };
    const headers = { "idempotency-key": marker };
    const first = await postReasoning(h, key, body, headers);
    const second = await postReasoning(h, key, body, headers);
    expect(first.status).to.equal(200);
    expect(second.status).to.equal(200);
    expect(second.body.job_id).to.equal(first.body.job_id);
    expect(callsMentioning(h, marker)).to.have.length(1);
  });

  it("seals credential-like llm_args: the stored request holds a marker, and the calls still get the value", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("sealed");
    const secret = `secret-${marker}`;
    const res = await postReasoning(h, key, {
      swarm_type: "AgentJudge",
      task: marker,
      llm_args: { metadata: { access_token: secret } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [row] = await h.deps.ds.query("SELECT request::text AS request FROM runs WHERE id = $1", [res.body.job_id]);
    expect(row.request).not.to.include(secret);
    expect(row.request).to.include("access_token");
    expect(JSON.stringify(callsMentioning(h, marker)[0])).to.include(secret);
  });

  it("keeps to the request's budget: a run past max_tokens fails with BUDGET_EXCEEDED and stops calling", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("budget");
    const res = await postReasoning(h, key, {
      swarm_type: "AgentJudge",
      max_loops: 10,
      task: marker,
      budget: { max_tokens: 150 },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
    expect(job.body).to.include({ status: "failed", code: "BUDGET_EXCEEDED" });
    expect(callsMentioning(h, marker).length).to.be.below(10);
  });

  it("shows in GET /v1/swarm/logs as a reasoning_agent run, its request with the type that ran and the name sent", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("logs");
    const res = await postReasoning(h, key, { swarm_type: "ire-agent", max_loops: 1, num_samples: 1, task: marker });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const logs = await request(h.baseUrl, "GET", "/v1/swarm/logs?limit=20", { key });
    const entry = logs.body.logs.find((l: any) => l.id === res.body.job_id);
    expect(entry.category).to.equal("reasoning_agent");
    expect(entry.data.request).to.include({ swarm_type: "ire", requested_swarm_type: "ire-agent", task: marker });
  });
});
