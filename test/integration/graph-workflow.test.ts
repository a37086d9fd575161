import { expect } from "chai";
import type { GraphWorkflowRequest } from "../../shared/contracts/workflows";
import { planGraph } from "../../shared/swarms/graph-plan";
import { UsageCounter } from "../../workers/agents/agent-context";
import { RunBudget } from "../../workers/agents/run-budget";
import { StepRecorder } from "../../workers/agents/step-recorder";
import { runGraph } from "../../workers/swarms/graph-workflow";
import { workflowSwarm } from "../../workers/swarms/workflow-swarm";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import {
  agent,
  callerOf,
  callsMentioning,
  conversationOf,
  entriesMentioning,
  inputOf,
  uniqueMarker,
} from "../helpers/swarm";
import { expectSdkType, swarmsClient } from "../helpers/swarms-sdk";

const PATH = "/v1/graph-workflow/completions";

describe("POST /v1/graph-workflow/completions", () => {
  let h: Harness;
  let key: string;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    request(h.baseUrl, "POST", PATH, { key, body, headers });

  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs a diamond A → {B, C} → D: each node after all its sources, reading exactly their outputs, B and C in parallel (3 latencies, not 4)", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("diamond");
    const latency = 700;
    const slow = { llm_args: { sim_latency_ms: latency } };
    const res = await post({
      name: "Diamond",
      description: "fan out, fan in",
      agents: ["A", "B", "C", "D"].map((n) => agent(n, slow)),
      edges: [
        { source: "A", target: "B" },
        { source: "A", target: "C", metadata: { priority: "high" } },
        { source: "B", target: "D" },
        { source: "C", target: "D" },
      ],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: "success", name: "Diamond", description: "fan out, fan in" });
    expectSdkType("GraphWorkflowExecuteWorkflowResponse", res.body, "client/graph-workflow");

    const entries = entriesMentioning(h, marker);
    const calls = entries.map((e) => e.body);
    expect(calls.map(callerOf)).to.have.length(4);
    const callOf = (name: string) => calls.find((c) => callerOf(c) === name);
    const at = (name: string) => Date.parse(entries[calls.indexOf(callOf(name))].at);
    // Order: A first, D last, B and C in between (in either order).
    expect(callerOf(calls[0])).to.equal("A");
    expect(callerOf(calls[3])).to.equal("D");
    expect(calls.slice(1, 3).map(callerOf).sort()).to.deep.equal(["B", "C"]);

    const outputs = res.body.outputs;
    expect(Object.keys(outputs).sort()).to.deep.equal(["A", "B", "C", "D"]);
    for (const name of ["A", "B", "C", "D"]) expect(outputs[name]).to.include(conversationOf(callOf(name)));

    // Inputs: A the task alone; B and C the task and A's output; D the task, B's and C's (not A's).
    expect(inputOf(callOf("A"))).to.equal(marker);
    for (const name of ["B", "C"]) {
      const input = inputOf(callOf(name));
      expect(input.startsWith(marker)).to.equal(true);
      expect(input).to.include(`A: ${outputs.A}`);
      expect(input).not.to.include(outputs.B).and.not.to.include(outputs.C);
    }
    const dInput = inputOf(callOf("D"));
    expect(dInput.startsWith(marker)).to.equal(true);
    expect(dInput).to.include(`B: ${outputs.B}`).and.to.include(`C: ${outputs.C}`);
    expect(dInput).not.to.include(outputs.A);
    // The team note says where the node sits.
    expect(callOf("D").messages[0].content).to.include("after B, C, whose outputs you receive");

    // Depth: B and C start together once A is done; D once both are.
    expect(Math.abs(at("B") - at("C"))).to.be.below(latency / 2);
    expect(at("B") - at("A")).to.be.at.least(latency * 0.95);
    expect(at("D") - at("B")).to.be.at.least(latency * 0.95);
    // D's call starts two latencies after A's (B and C overlapped; one after the other it would be three).
    expect(at("D") - at("A")).to.be.below(2.5 * latency);
    // The run's wall time is the critical path: three latencies, not four.
    const [{ execution_time }] = await h.deps.ds.query("SELECT execution_time FROM runs WHERE id = $1", [
      res.body.job_id,
    ]);
    expect(execution_time).to.be.at.least(3 * latency * 0.95e-3);
    expect(execution_time).to.be.below(3.5 * latency * 1e-3);

    // Usage: four agents, billed.
    expect(res.body.usage.cost_per_agent).to.be.greaterThan(0);
    expect(res.body.usage.total_tokens).to.equal(res.body.usage.input_tokens + res.body.usage.output_tokens);
  });

  it("with max_loops 2 runs the whole graph again, its entry point reading the last run's end-point outputs, and keeps each loop's outputs", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("loops");
    const res = await post({
      agents: [agent("Drafter"), agent("Editor")],
      edges: [{ source: "Drafter", target: "Editor" }],
      max_loops: 2,
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(["Drafter", "Editor", "Drafter", "Editor"]);
    const out = res.body.outputs;
    expect(Object.keys(out).sort()).to.deep.equal(
      ["Drafter", "Drafter_loop_1", "Drafter_loop_2", "Editor", "Editor_loop_1", "Editor_loop_2"].sort(),
    );
    expect(out.Drafter).to.equal(out.Drafter_loop_2);
    expect(out.Editor).to.equal(out.Editor_loop_2);
    expect(out.Drafter_loop_1).to.include(conversationOf(calls[0]));
    expect(out.Editor_loop_2).to.include(conversationOf(calls[3]));
    expect(inputOf(calls[0])).to.equal(marker);
    // Loop 2's entry point reads the task and the end point's loop-1 output, attributed.
    const second = inputOf(calls[2]);
    expect(second.startsWith(marker)).to.equal(true);
    expect(second).to.include(`Editor: ${out.Editor_loop_1}`);
    expect(second).not.to.include(out.Drafter_loop_1);
    expect(inputOf(calls[3])).to.include(`Drafter: ${out.Drafter_loop_2}`);
  });

  it("a retried run replays every node's stored step without calling the LLM again", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("replay");
    const res = await post({
      agents: [agent("Root"), agent("Left"), agent("Right"), agent("Join")],
      edges: [
        { source: "Root", target: "Left" },
        { source: "Root", target: "Right" },
        { source: "Left", target: "Join" },
        { source: "Right", target: "Join" },
      ],
      max_loops: 2,
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(callsMentioning(h, marker)).to.have.length(8);
    const [run] = await h.deps.ds.query("SELECT request FROM runs WHERE id = $1", [res.body.job_id]);
    const steps = await h.deps.ds.query("SELECT * FROM run_steps WHERE run_id = $1", [res.body.job_id]);
    const request = run.request as GraphWorkflowRequest;
    const recorder = StepRecorder.forRun(h.deps.ds, res.body.job_id, steps);
    const ctx = {
      recorder,
      budget: new RunBudget({ maxTokens: 1e7, maxCost: 100, deadline: Date.now() + 60_000 }),
      usage: new UsageCounter(),
      signal: new AbortController().signal,
    };
    const swarm = workflowSwarm({ ...request, type: "GraphWorkflow" }, ctx, null);
    const plan = planGraph({ ...request, names: request.agents.map((a) => a.agent_name!) });
    const outputs = await runGraph(swarm, plan, request.task);
    expect(JSON.parse(JSON.stringify(outputs))).to.deep.equal(res.body.outputs);
    expect(recorder.replayed).to.equal(8);
    expect(callsMentioning(h, marker)).to.have.length(8);
  });

  describe("a graph that cannot run is refused with 400 naming its node(s), before any LLM call", () => {
    async function refused(body: Record<string, unknown>): Promise<string> {
      const marker = uniqueMarker("bad-graph");
      const res = await post({ task: marker, ...body });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.code).to.equal("INVALID_WORKFLOW");
      expect(res.body.detail).to.be.a("string");
      expect(callsMentioning(h, marker)).to.have.length(0);
      return res.body.detail;
    }
    const abc = [agent("A"), agent("B"), agent("C")];

    it("a cycle, naming the nodes on it", async () => {
      const detail = await refused({
        agents: abc,
        edges: [
          { source: "A", target: "B" },
          { source: "B", target: "C" },
          { source: "C", target: "A" },
        ],
      });
      expect(detail).to.include("cycle").and.to.include("A → B → C → A");
      const self = await refused({ agents: abc, edges: [{ source: "B", target: "B" }] });
      expect(self).to.include("B → B");
    });

    it("an edge naming an unknown node", async () => {
      const detail = await refused({ agents: abc, edges: [{ source: "A", target: "Ghost" }] });
      expect(detail).to.include("edges[0].target 'Ghost' is not an agent of the graph");
    });

    it("an entry or end point naming an unknown node", async () => {
      const detail = await refused({ agents: abc, entry_points: ["Nobody"], end_points: ["A", "Nowhere"] });
      expect(detail).to.include("entry_points[0] 'Nobody'").and.to.include("end_points[1] 'Nowhere'");
    });

    it("an end point the entry points do not lead to", async () => {
      const detail = await refused({
        agents: abc,
        edges: [{ source: "A", target: "B" }],
        entry_points: ["A"],
        end_points: ["B", "C"],
      });
      expect(detail).to.include("end point 'C' cannot be reached from the entry points ('A')");
    });

    it("an entry point that has sources", async () => {
      const detail = await refused({
        agents: abc.slice(0, 2),
        edges: [{ source: "A", target: "B" }],
        entry_points: ["A", "B"],
      });
      expect(detail).to.include("entry point 'B' has sources ('A')");
    });

    it("with several loops, a node named like another's per-loop outputs key", async () => {
      const detail = await refused({ agents: [agent("A"), agent("A_loop_2")], max_loops: 2 });
      expect(detail).to.include("'A_loop_2' is the outputs key of loop 2 of 'A'");
    });

    it("duplicate or missing agent names, every problem at once", async () => {
      const detail = await refused({
        agents: [agent("A"), agent("A"), { system_prompt: "nameless" }],
        edges: [{ source: "Q", target: "A" }],
      });
      expect(detail).to.include("'A' names more than one agent (agents[0], agents[1])");
      expect(detail).to.include("agents[2] has no agent_name");
      expect(detail).to.include("edges[0].source 'Q'");
    });
  });

  it("a graph with problems of every kind is refused with all of them at once, each named once, not only the first kind found", async () => {
    const marker = uniqueMarker("bad-graph-all");
    const res = await post({
      task: marker,
      agents: ["A", "B", "C", "D", "E", "X", "X_loop_2"].map((n) => agent(n)),
      edges: [
        { source: "A", target: "B" },
        { source: "B", target: "A" },
        { source: "C", target: "Ghost" },
        { source: "C", target: "D" },
      ],
      entry_points: ["A", "C", "D", "Nobody"],
      max_loops: 2,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.code).to.equal("INVALID_WORKFLOW");
    expect(res.body.detail.split("; ")).to.deep.equal([
      "edges[2].target 'Ghost' is not an agent of the graph",
      "entry_points[3] 'Nobody' is not an agent of the graph",
      "the edges form a cycle: A → B → A",
      "entry point 'D' has sources ('C'): the task enters there",
      "end point 'E' cannot be reached from the entry points ('A', 'C', 'D')",
      "end point 'X' cannot be reached from the entry points ('A', 'C', 'D')",
      "end point 'X_loop_2' cannot be reached from the entry points ('A', 'C', 'D')",
      "'X_loop_2' is the outputs key of loop 2 of 'X' (max_loops 2): rename the agent",
    ]);
    expect(callsMentioning(h, marker)).to.have.length(0);
  });

  it("refuses malformed bodies with 422 listing every problem: list edges, no task, no agents, too many edges", async () => {
    const res = await post({ edges: [["A", "B"]], max_loops: 0 });
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    const locs = res.body.detail.map((d: any) => d.loc.slice(1).join("."));
    expect(locs).to.include.members(["agents", "task", "edges.0", "max_loops"]);
    const many = await post({
      agents: [agent("A")],
      task: "x",
      edges: Array.from({ length: 1001 }, () => ({ source: "A", target: "A" })),
    });
    expect(many.status).to.equal(422);
  });

  it("with Prefer: respond-async answers 202; GET /v1/jobs/{id} shows its progress while it runs, then presents the same body", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("async");
    const slow = { llm_args: { sim_latency_ms: 1_000 } };
    const accepted = await post(
      {
        agents: [agent("First", slow), agent("Then", slow)],
        edges: [{ source: "First", target: "Then" }],
        task: marker,
      },
      { prefer: "respond-async" },
    );
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    const read = () => request(h.baseUrl, "GET", `/v1/jobs/${accepted.body.job_id}`, { key });
    const running = await eventually(async () => {
      const res = await read();
      return res.body.status === "running" && res.body.progress ? res.body : undefined;
    }, 10_000);
    expect(running).to.include({ kind: "graph_workflow" });
    expect(running.progress.steps_total).to.equal(2);
    const done = await eventually(async () => {
      const res = await read();
      return ["queued", "running"].includes(res.body.status) ? undefined : res.body;
    }, 20_000);
    expect(done).to.include({ status: "success", job_id: accepted.body.job_id });
    expect(Object.keys(done.outputs).sort()).to.deep.equal(["First", "Then"]);
    expect(done.outputs.First).to.include(conversationOf(callsMentioning(h, marker)[0]));
    expectSdkType("GraphWorkflowExecuteWorkflowResponse", done, "client/graph-workflow");
  });

  it("keeps a node's provider credential out of the stored request (sealed, as every run's) and still sends it", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("sealed");
    const secret = `sk-graph-${Math.random().toString(36).slice(2)}`;
    const res = await post({
      agents: [
        agent("Keyed", { llm_args: { metadata: { api_key: secret }, sim_reply: `ok ${marker}` } }),
        agent("After"),
      ],
      edges: [{ source: "Keyed", target: "After" }],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.outputs.Keyed).to.equal(`ok ${marker}`);
    const [run] = await h.deps.ds.query("SELECT request, sealed_secrets FROM runs WHERE id = $1", [res.body.job_id]);
    expect(JSON.stringify(run.request)).not.to.include(secret);
    expect(run.request.agents[0].llm_args.metadata.api_key).to.equal("[redacted]");
    expect(JSON.stringify(run.sealed_secrets)).not.to.include(secret);
    expect(JSON.stringify(res.body)).not.to.include(secret);
    const keyed = callsMentioning(h, marker).find((c) => callerOf(c) === "Keyed");
    expect(keyed.metadata.api_key, "the worker put the sealed credential back for the provider call").to.equal(secret);
  });

  it("a node that fails fails the run naming it (500 AGENT_FAILED); the nodes after it never run", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("failing");
    const res = await post({
      agents: [agent("Start"), agent("Broken", { llm_args: { sim_error: 400 } }), agent("Never")],
      edges: [
        { source: "Start", target: "Broken" },
        { source: "Broken", target: "Never" },
      ],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    expect(res.body).to.include({ code: "AGENT_FAILED", agent: "Broken" });
    expect(callsMentioning(h, marker).map(callerOf)).to.deep.equal(["Start", "Broken"]);
  });

  it("through the SDK: client.client.graphWorkflow.executeWorkflow", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("sdk");
    const client = swarmsClient(h.baseUrl, key);
    const res = await client.client.graphWorkflow.executeWorkflow({
      name: "sdk graph",
      agents: [
        { agent_name: "First", model_name: "gpt-4o-mini" },
        { agent_name: "Second", model_name: "gpt-4o-mini" },
      ],
      edges: [{ source: "First", target: "Second" }],
      entry_points: ["First"],
      end_points: ["Second"],
      task: marker,
      auto_compile: true,
      verbose: false,
    });
    expectSdkType("GraphWorkflowExecuteWorkflowResponse", res, "client/graph-workflow");
    expect(Object.keys(res.outputs as object).sort()).to.deep.equal(["First", "Second"]);
    expect(callsMentioning(h, marker)).to.have.length(2);
  });
});
