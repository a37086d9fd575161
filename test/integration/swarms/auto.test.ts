import { expect } from "chai";
import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import { SWARM_TYPES } from "../../../shared/swarms/swarm-catalog";
import { swarmRunners } from "../../../workers/swarms/registry";
import { possibleTypes, type TypeChoice } from "../../../workers/swarms/types/auto";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { cannedCall, inProcessSwarm, type CannedDecisions } from "../../helpers/swarm-fixture";
import { agent, callerOf, callsMentioning, inputOf, postSwarm, uniqueMarker } from "../../helpers/swarm";

function inProcess(agents: any[], task: string, canned: CannedDecisions) {
  return inProcessSwarm("auto", { agents, task }, canned);
}

const request = (fields: Partial<SwarmRequest>) =>
  ({ max_loops: 1, swarm_type: "auto", task: "t", ...fields }) as SwarmRequest;
const agents = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ agent_name: `A${i}`, model_name: "gpt-4.1", role: "worker" })) as any;
const auto = swarmRunners.auto;
const registered = SWARM_TYPES.filter((t) => swarmRunners[t] && t !== "auto" && t !== "AutoSwarmBuilder");

describe("auto (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("a Selector chooses among the possible types only, then that type runs; the response names the chosen type", async () => {
    const marker = uniqueMarker("auto");
    const names = [`First-${marker}`, `Second-${marker}`];
    const journalBefore = h.sim.journal.length;
    const res = await postSwarm(h, key, {
      swarm_type: "auto",
      agents: [agent(names[0], { model_name: "gpt-4o-mini" }), agent(names[1])],
      task: `${marker} task`,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);

    const calls = callsMentioning(h, marker);
    const selector = calls[0];
    expect(callerOf(selector)).to.equal("Selector");
    expect(selector.model).to.equal("gpt-4o-mini");
    expect(selector.tool_choice).to.deep.equal({ type: "function", function: { name: "choose_swarm_type" } });
    const offered = selector.tools[0].function.parameters.properties.swarm_type.enum as string[];
    // 2 agents, no flow, no tasks: never DebateWithJudge or MALT (3 agents), AgentRearrange or BatchedGridWorkflow, nor a meta type.
    expect(offered).to.deep.equal(
      registered.filter((t) => !["DebateWithJudge", "MALT", "AgentRearrange", "BatchedGridWorkflow"].includes(t)),
    );
    expect(offered).to.include("SequentialWorkflow").and.not.include("auto").and.not.include("AutoSwarmBuilder");
    // The selector sees the task and the agent list.
    expect(inputOf(selector))
      .to.include(`${marker} task`)
      .and.include(`- ${names[0]}: ${names[0]} does its part`)
      .and.include(`- ${names[1]}:`);

    const [step] = await h.deps.ds.query("SELECT output FROM run_steps WHERE run_id = $1 AND step_key = 'selector#0'", [
      res.body.job_id,
    ]);
    const choice = JSON.parse(step.output.tool_calls[0].function.arguments) as TypeChoice;
    expect(offered).to.include(choice.swarm_type);
    expect(res.body.swarm_type, "the chosen type, not auto").to.equal(choice.swarm_type);
    expect(res.body.output[0]).to.deep.equal({
      role: "Selector",
      agent: "Selector",
      content: `Chose ${choice.swarm_type}: ${choice.reason}`,
      swarm_type: choice.swarm_type,
    });
    expect(res.body.output.length).to.be.above(1);

    // The chosen type's agents ran as that type (their team note names it), under their own step lanes.
    const rest = calls.slice(1);
    expect(rest.length).to.be.at.least(1);
    for (const call of rest)
      expect(call.messages[0].content).to.include(`swarm, `).and.include(`of the ${choice.swarm_type} swarm`);
    // Every call of the run, its type's own agents' too (a Consensus or a Synthesis need not quote the
    // task): the tests of this file run one at a time, so they are the journal's entries since the request.
    const runCalls = h.sim.journal.slice(journalBefore).map((e: any) => e.body);
    // Tool steps (a DeepResearchSwarm's searches) are no LLM calls: only the LLM steps are counted.
    const steps = await h.deps.ds.query(
      "SELECT step_key FROM run_steps WHERE run_id = $1 AND step_key <> 'selector#0' AND role <> 'tool'",
      [res.body.job_id],
    );
    expect(steps.length).to.equal(runCalls.length - 1);
    for (const s of steps) expect(s.step_key.startsWith(`${choice.swarm_type}/`), s.step_key).to.equal(true);
    // Every distinct caller counts, the Selector included.
    expect(res.body.number_of_agents).to.equal(new Set(runCalls.map(callerOf)).size);
    expect(new Set(runCalls.map(callerOf))).to.include("Selector");
  });

  it("offers DebateWithJudge with exactly 3 agents and AgentRearrange with a flow", async () => {
    const marker = uniqueMarker("auto-three");
    const names = ["P", "C", "J"].map((n) => `${n}-${marker}`);
    const res = await postSwarm(h, key, {
      swarm_type: "auto",
      agents: names.map((n) => agent(n)),
      rearrange_flow: names.join(" -> "),
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const offered = callsMentioning(h, marker)[0].tools[0].function.parameters.properties.swarm_type.enum;
    expect(offered).to.deep.equal(registered.filter((t) => t !== "BatchedGridWorkflow"));
  });

  it("400 without agents (auto needs one)", async () => {
    const marker = uniqueMarker("auto-none");
    const res = await postSwarm(h, key, { swarm_type: "auto", task: marker });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.detail).to.include("auto needs at least 1 agent");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });

  it("an invalid choice is repaired once with the problem shown", async () => {
    const marker = uniqueMarker("auto-repair");
    const run = inProcess([agent(`Solo-${marker}`)], marker, (lane, attempt) =>
      lane === "selector" && attempt === 0
        ? cannedCall("choose_swarm_type", { swarm_type: "DebateWithJudge", reason: "r" })
        : undefined,
    );
    const output = (await auto.run(run.swarm)) as { role: string; content: string }[];
    const repair = callsMentioning(h, marker).find((c) => callerOf(c) === "Selector")!;
    expect(repair.messages.map((m: any) => m.role)).to.deep.equal(["system", "user", "assistant", "tool"]);
    expect(repair.messages[3].content).to.include("'swarm_type' must be one of");
    expect(repair.messages[3].content).to.not.include("DebateWithJudge");
    expect(run.steps.filter((s) => s.lane === "selector")).to.have.length(2);
    expect(output[0].content).to.match(/^Chose /);
    expect(run.swarm.ranType).to.equal((output[0] as any).swarm_type);
  });

  it("when the choice stays invalid, SequentialWorkflow runs and the Selector turn says so", async () => {
    const marker = uniqueMarker("auto-fallback");
    const names = [`One-${marker}`, `Two-${marker}`];
    const run = inProcess(
      names.map((n) => agent(n)),
      marker,
      (lane) =>
        lane === "selector" ? cannedCall("choose_swarm_type", { swarm_type: "Nope", reason: "r" }) : undefined,
    );
    const output = (await auto.run(run.swarm)) as { role: string; content: string }[];
    expect(run.swarm.ranType).to.equal("SequentialWorkflow");
    expect(output.map((t) => t.role)).to.deep.equal(["Selector", ...names]);
    expect(output[0].content).to.match(
      /^Could not choose a swarm type \(Selector gave an invalid choose_swarm_type decision twice.*\); running SequentialWorkflow\.$/,
    );
    // Sequential: the second agent sees the first one's turn (not the Selector's).
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(names);
    expect(inputOf(calls[1])).to.equal(`${marker}\n\n${names[0]}: ${output[1].content}`);
    expect(run.steps.map((s) => s.lane)).to.deep.equal([
      "selector",
      "selector",
      "SequentialWorkflow/l0/a0",
      "SequentialWorkflow/l0/a1",
    ]);
    expect(run.ctx.usage.agentNames.sort(), "the Selector made calls too").to.deep.equal(["Selector", ...names].sort());
  });
});

describe("auto possible types (unit)", () => {
  it("follows the request rules: agent minimum, DebateWithJudge's 3, AgentRearrange's flow, BatchedGridWorkflow's tasks", () => {
    const one = possibleTypes(request({ agents: agents(1) }));
    expect(one).to.include("SequentialWorkflow").and.include("MultiAgentRouter");
    for (const t of [
      "MixtureOfAgents",
      "GroupChat",
      "MajorityVoting",
      "DebateWithJudge",
      "AgentRearrange",
      "BatchedGridWorkflow",
      "auto",
      "AutoSwarmBuilder",
    ])
      expect(one).to.not.include(t);
    expect(possibleTypes(request({ agents: agents(4) }))).to.not.include("DebateWithJudge");
    expect(possibleTypes(request({ agents: agents(2), rearrange_flow: "A0 -> Nobody" }))).to.not.include(
      "AgentRearrange",
    );
    expect(possibleTypes(request({ agents: agents(2), rearrange_flow: "A0 -> A1" }))).to.include("AgentRearrange");
    expect(possibleTypes(request({ agents: agents(2), tasks: ["x", "y"] }))).to.include("BatchedGridWorkflow");
    // Run once per task already (no `task`): the grid would repeat inside every task.
    expect(possibleTypes(request({ agents: agents(2), task: null, tasks: ["x", "y"] }))).to.not.include(
      "BatchedGridWorkflow",
    );
  });
});
