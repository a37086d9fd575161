import { expect } from "chai";
import { agentSpecSchema } from "../../../api/schemas/agent-spec.schema";
import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import { swarmRuleProblems } from "../../../shared/swarms/swarm-rules";
import { swarmRunners } from "../../../workers/swarms/registry";
import { DecisionError } from "../../../workers/swarms/structured-decision";
import { generatedAgentSpec, readSpec, renderSpec, type SwarmSpec } from "../../../workers/swarms/builder/swarm-spec";
import { concreteTypes } from "../../../workers/swarms/types/chosen-type";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { cannedCall, inProcessSwarm, type CannedDecisions } from "../../helpers/swarm-fixture";
import { agent, callerOf, callsMentioning, inputOf, postSwarm, uniqueMarker } from "../../helpers/swarm";

const autoSwarmBuilder = swarmRunners.AutoSwarmBuilder;

function inProcess(agents: any[], task: string, canned: CannedDecisions) {
  return inProcessSwarm("AutoSwarmBuilder", { agents, task }, canned);
}

const builtAgent = (role: string) => ({ description: `${role} part`, system_prompt: `You are the ${role}.` });

describe("AutoSwarmBuilder (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("a Builder writes a spec (forced tool, concrete types only), the service runs the generated swarm and reports it", async () => {
    // The simulator answers every request deterministically; some specs it writes are invalid
    // (e.g. a made-up flow), so a run may fail after its repair. Each attempt's outcome is checked.
    let success: { res: any; journalFrom: number; marker: string } | null = null;
    for (let attempt = 0; attempt < 6 && !success; attempt++) {
      const marker = uniqueMarker("asb");
      const journalFrom = h.sim.journal.length;
      const res = await postSwarm(h, key, {
        swarm_type: "AutoSwarmBuilder",
        agents: [agent(`Hint-${marker}`, { model_name: "gpt-4o-mini" })],
        task: `${marker} task`,
      });
      const builderCalls = callsMentioning(h, marker).filter((c) => callerOf(c) === "Builder");
      const first = builderCalls[0];
      expect(first.model, "the builder uses the first agent's model").to.equal("gpt-4o-mini");
      expect(first.tool_choice).to.deep.equal({ type: "function", function: { name: "build_swarm" } });
      const params = first.tools[0].function.parameters;
      expect(params.properties.swarm_type.enum).to.deep.equal(concreteTypes({ task: "x" } as SwarmRequest));
      expect(params.properties.swarm_type.enum)
        .to.not.include("auto")
        .and.not.include("AutoSwarmBuilder")
        .and.not.include("BatchedGridWorkflow");
      expect(params.properties.agents).to.include({ minProperties: 2, maxProperties: 8 });
      // Builder input: the task, with the request's agents as hints.
      expect(inputOf(first)).to.include(`${marker} task`).and.include(`- Hint-${marker}: Hint-${marker} does its part`);
      if (res.status === 200) success = { res, journalFrom, marker };
      else {
        expect(res.status, JSON.stringify(res.body)).to.equal(500);
        expect(res.body).to.include({ code: "DECISION_INVALID", agent: "Builder" });
        expect(builderCalls, "failed only after the repair").to.have.length(2);
      }
    }
    expect(success, "one of the attempts built a valid swarm").to.not.equal(null);
    const { res, journalFrom } = success!;
    const builderTurn = res.body.output[0];
    expect(builderTurn.role).to.equal("Builder");
    const spec = builderTurn.spec as SwarmSpec;
    // The response names the type that ran (as `auto` does), not "AutoSwarmBuilder";
    // the built swarm's description stays visible in the Builder turn.
    expect(res.body.swarm_type, "the generated type").to.equal(spec.swarm_type);
    if (spec.description) expect(builderTurn.content).to.include(`Description: ${spec.description}`);
    expect(builderTurn.content).to.equal(renderSpec(spec));
    expect(spec.agents.length).to.be.within(2, 8);
    // The generated agents really ran, as the generated type, with their generated prompts and the builder's model.
    const calls = h.sim.journal.slice(journalFrom).map((e: any) => e.body);
    const generated = spec.agents.map((a) => a.agent_name);
    const agentCalls = calls.filter((c: any) => generated.includes(callerOf(c)));
    expect(agentCalls.length).to.be.at.least(1);
    for (const call of agentCalls) {
      const built = spec.agents.find((a) => a.agent_name === callerOf(call))!;
      expect(call.messages[0].content).to.include(built.system_prompt).and.include(`of the ${spec.swarm_type} swarm`);
      expect(call.model).to.equal("gpt-4o-mini");
    }
    expect(calls.map(callerOf)).to.not.include(`Hint-${success!.marker}`);
    expect(res.body.number_of_agents).to.equal(new Set(calls.map(callerOf)).size);
    expect(res.body.output.length).to.be.above(1);
  });

  it("runs a valid spec as that swarm: generated agents with API defaults, a same-named request agent keeping its settings", async () => {
    const marker = uniqueMarker("asb-run");
    const [drafter, editor] = [`Drafter-${marker}`, `Editor-${marker}`];
    const spec = {
      name: "Pair",
      description: "Drafts and edits",
      swarm_type: "SequentialWorkflow",
      rules: "Be brief.",
      agents: { [drafter]: builtAgent("drafter"), [editor]: builtAgent("editor") },
    };
    const run = inProcess(
      [
        agent(`Lead-${marker}`, { model_name: "gpt-4.1" }),
        agent(editor, { model_name: "gpt-4o-mini", max_tokens: 77 }),
      ],
      marker,
      (lane) => (lane === "builder" ? cannedCall("build_swarm", spec) : undefined),
    );
    const output = (await autoSwarmBuilder.run(run.swarm)) as { role: string; content: string }[];
    expect(output.map((t) => t.role)).to.deep.equal(["Builder", drafter, editor]);
    expect(output[0].content).to.equal(
      `Swarm 'Pair' (SequentialWorkflow) with 2 agents:\nDescription: Drafts and edits\n- ${drafter}: drafter part\n  System prompt: You are the drafter.\n- ${editor}: editor part\n  System prompt: You are the editor.\nRules: Be brief.`,
    );
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal([drafter, editor]);
    expect(calls[0].model, "builder's model").to.equal("gpt-4.1");
    expect(calls[1].model, "the hint's model").to.equal("gpt-4o-mini");
    expect(calls[1].max_tokens ?? calls[1].max_completion_tokens).to.equal(77);
    expect(calls[0].messages[0].content)
      .to.include("You are the drafter.")
      .and.include("of the SequentialWorkflow swarm 'Pair'")
      .and.include("Swarm purpose: Drafts and edits")
      .and.include("Rules: Be brief.");
    expect(calls[1].messages[0].content).to.include("You are the editor.");
    expect(inputOf(calls[1])).to.equal(`${marker}\n\n${drafter}: ${output[1].content}`);
    expect(run.steps.map((s) => s.lane)).to.deep.equal(["builder", "swarm/l0/a0", "swarm/l0/a1"]);
    expect(run.ctx.usage.agentNames.sort()).to.deep.equal(["Builder", drafter, editor].sort());
  });

  it("an invalid spec is repaired once with the request-rule problems shown; a second invalid one fails naming the Builder", async () => {
    const marker = uniqueMarker("asb-repair");
    const bad = {
      name: "Flow",
      swarm_type: "AgentRearrange",
      rearrange_flow: "X -> Ghost",
      agents: { X: builtAgent("x"), Y: builtAgent("y") },
    };
    const first = inProcess([agent(`Lead-${marker}`)], marker, (lane, attempt) =>
      lane === "builder" && attempt === 0 ? cannedCall("build_swarm", bad) : undefined,
    );
    await autoSwarmBuilder.run(first.swarm).catch(() => null); // the repaired spec may itself be invalid; the repair call is what is checked
    const repair = callsMentioning(h, marker).find((c) => callerOf(c) === "Builder")!;
    expect(repair.messages.map((m: any) => m.role)).to.deep.equal(["system", "user", "assistant", "tool"]);
    expect(repair.messages[3].content).to.include("rearrange_flow names agents that are not in the swarm: Ghost");

    const marker2 = uniqueMarker("asb-fail");
    const debate = { name: "D", swarm_type: "DebateWithJudge", agents: { P: builtAgent("p"), C: builtAgent("c") } };
    const second = inProcess([agent(`Lead-${marker2}`)], marker2, (lane) =>
      lane === "builder" ? cannedCall("build_swarm", debate) : undefined,
    );
    const err = await autoSwarmBuilder.run(second.swarm).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(DecisionError);
    expect(err).to.include({ code: "DECISION_INVALID", agent: "Builder" });
    expect((err as Error).message).to.include("DebateWithJudge needs exactly 3 agents");
    expect(second.steps.map((s) => s.lane)).to.deep.equal(["builder", "builder"]);
    expect(callsMentioning(h, marker2)).to.have.length(0);
  });

  it("runs without request agents (the service's default model builds); the catalog does not refuse it", async () => {
    expect(swarmRunners.AutoSwarmBuilder.name).to.equal("AutoSwarmBuilder");
    expect(
      swarmRuleProblems({
        max_loops: 1,
        swarm_type: "AutoSwarmBuilder",
        task: "x",
        agents: [],
      } as unknown as SwarmRequest),
    ).to.deep.equal([]);
    const marker = uniqueMarker("asb-none");
    const res = await postSwarm(h, key, { swarm_type: "AutoSwarmBuilder", task: marker });
    expect(res.status, "not refused: 200 or a failed decision after repair").to.be.oneOf([200, 500]);
    const builder = callsMentioning(h, marker).find((c) => callerOf(c) === "Builder")!;
    expect(inputOf(builder)).to.not.include("Agents suggested by the request");
  });
});

describe("AutoSwarmBuilder specs (unit)", () => {
  it("generated agents get exactly the API schema's defaults", () => {
    const built = { agent_name: "Writer", description: "writes", system_prompt: "You write." };
    const { value, error } = agentSpecSchema.validate({ ...built, model_name: "gpt-4.1" });
    expect(error).to.equal(undefined);
    expect(generatedAgentSpec(built, { model: "gpt-4.1" })).to.deep.equal(value);
  });

  it("reads keyed agents in order, drops a flow for other types, and rejects bad shapes", () => {
    const types = concreteTypes({ task: "x" } as SwarmRequest);
    const { spec } = readSpec(types, {
      name: " N ",
      swarm_type: "ConcurrentWorkflow",
      rearrange_flow: "A -> B",
      agents: { B: builtAgent("b"), A: builtAgent("a") },
    });
    expect(spec).to.deep.equal({
      name: "N",
      description: "",
      swarm_type: "ConcurrentWorkflow",
      rearrange_flow: null,
      rules: null,
      agents: [
        { agent_name: "B", description: "b part", system_prompt: "You are the b." },
        { agent_name: "A", description: "a part", system_prompt: "You are the a." },
      ],
    });
    expect(
      readSpec(types, { name: "N", swarm_type: "auto", agents: { A: builtAgent("a"), B: builtAgent("b") } }).problem,
    ).to.include("'swarm_type' must be one of");
    expect(readSpec(types, { name: "N", swarm_type: "GroupChat", agents: { A: builtAgent("a") } }).problem).to.include(
      "2 to 8 agents (got 1)",
    );
    expect(
      readSpec(types, { name: "N", swarm_type: "GroupChat", agents: { A: builtAgent("a"), "A ": builtAgent("b") } })
        .problem,
    ).to.include("agent names must be unique: A");
    expect(
      readSpec(types, { name: "N", swarm_type: "GroupChat", agents: { A: builtAgent("a"), B: { description: "d" } } })
        .problem,
    ).to.include("agent 'B' needs a description and a non-empty system_prompt");
    expect(concreteTypes({ task: "x", tasks: ["a"] } as SwarmRequest)).to.include("BatchedGridWorkflow");
  });
});
