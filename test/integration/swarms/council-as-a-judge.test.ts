import { expect } from "chai";
import { config } from "../../../shared/config";
import { BUILT_IN_JUDGES, councilAsAJudge } from "../../../workers/swarms/types/council-as-a-judge";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import {
  agent,
  callerOf,
  callsMentioning,
  conversationOf,
  expectReplayWithoutLlm,
  expectSwarmSuccess,
  inputOf,
  postSwarm,
  uniqueMarker,
} from "../../helpers/swarm";

describe("CouncilAsAJudge (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs the request's agents as judges in parallel, each on the material and its own dimension, then an internal Chair on every report", async () => {
    const marker = uniqueMarker("caj");
    const judges = [
      agent("Factuality", {
        description: "checks every claim against known facts",
        model_name: "gpt-4o-mini",
        llm_args: { sim_latency_ms: 300 },
      }),
      agent("Clarity", { description: "judges how clearly the text reads" }),
      agent("Tone", { description: "judges whether the tone suits a formal audience" }),
    ];
    const names = ["Factuality", "Clarity", "Tone"];
    const res = await postSwarm(h, key, { name: "Jury", swarm_type: "CouncilAsAJudge", agents: judges, task: marker });
    const output = expectSwarmSuccess(res, { swarm_type: "CouncilAsAJudge", swarm_name: "Jury", number_of_agents: 4 });
    expect(output.map((t) => t.role)).to.deep.equal([...names, "Chair"]);

    // J+1 calls: the three judges (any order; the slow first one must not shift attribution), then the Chair.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(4);
    expect(calls.slice(0, 3).map(callerOf).sort()).to.deep.equal([...names].sort());
    expect(callerOf(calls[3])).to.equal("Chair");
    expect(calls[3].model, "the Chair runs on the first agent's model").to.equal("gpt-4o-mini");
    for (const call of calls) expect(call.tools, `${callerOf(call)} gets no tools`).to.equal(undefined);

    judges.forEach((spec, i) => {
      const call = calls.slice(0, 3).find((c) => callerOf(c) === names[i])!;
      const input = inputOf(call);
      // The material and this judge's own dimension (name and description), not the others'.
      expect(input).to.include(marker);
      expect(input).to.include(`Your dimension: ${names[i]} — ${spec.description}`);
      for (const other of judges.filter((o) => o !== spec)) expect(input).not.to.include(other.description);
      expect(call.messages[0].content).to.include(`You are ${names[i]}.`);
      expect(output[i].content, `${names[i]}'s report is its own reply`).to.include(conversationOf(call));
    });

    // The Chair sees every report, attributed to its judge; its turn is its own reply.
    const chairInput = inputOf(calls[3]);
    names.forEach((name, i) =>
      expect(chairInput).to.include(`${name} (dimension: ${name} — ${judges[i].description}):\n${output[i].content}`),
    );
    expect(output[3].content).to.include(conversationOf(calls[3]));
  });

  it("without agents runs the six built-in dimension judges on the default model, then the Chair (7 agents)", async () => {
    const marker = uniqueMarker("caj-builtin");
    const res = await postSwarm(h, key, { swarm_type: "CouncilAsAJudge", task: marker });
    const output = expectSwarmSuccess(res, { swarm_type: "CouncilAsAJudge", number_of_agents: 7 });

    const judgeNames = BUILT_IN_JUDGES.map((j) => j.name);
    expect(judgeNames).to.deep.equal([
      "Accuracy Judge",
      "Helpfulness Judge",
      "Harmlessness Judge",
      "Coherence Judge",
      "Conciseness Judge",
      "Instruction Adherence Judge",
    ]);
    expect(output.map((t) => t.role)).to.deep.equal([...judgeNames, "Chair"]);

    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(7);
    expect(calls.slice(0, 6).map(callerOf).sort()).to.deep.equal([...judgeNames].sort());
    expect(callerOf(calls[6])).to.equal("Chair");
    for (const call of calls) expect(call.model).to.equal(config.llm.defaultModel);
    const dimensions = ["accuracy", "helpfulness", "harmlessness", "coherence", "conciseness", "instruction adherence"];
    judgeNames.forEach((name, i) => {
      const call = calls.find((c) => callerOf(c) === name)!;
      expect(inputOf(call)).to.include(marker).and.include(`Your dimension: ${dimensions[i]}:`);
      expect(call.messages[0].content).to.include(`along one dimension only: ${dimensions[i]}`);
      expect(output[i].content).to.include(conversationOf(call));
      expect(inputOf(calls[6])).to.include(`${name} (dimension: ${dimensions[i]}:`).and.include(output[i].content);
    });
  });

  it("accepts a request without agents but still requires task, tasks or messages", async () => {
    const res = await postSwarm(h, key, { swarm_type: "CouncilAsAJudge" });
    // Only the missing task (the 422 of a missing field): no complaint about the agents.
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body.detail).to.have.length(1);
    expect(res.body.detail[0]).to.deep.include({ loc: ["body", "task"], type: "any.required" });
  });

  it("a retried run replays every step without calling the LLM again", async () => {
    const marker = uniqueMarker("caj-replay");
    const res = await postSwarm(h, key, {
      swarm_type: "CouncilAsAJudge",
      agents: [agent("Logic"), agent("Style")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { stepKeys, recorder } = await expectReplayWithoutLlm(h, res, councilAsAJudge, marker, 3);
    expect(stepKeys).to.deep.equal(["chair#0", "j0#0", "j1#0"]);
    expect(recorder.replayed).to.equal(3);
  });
});
