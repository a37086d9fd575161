import { expect } from "chai";
import { malt } from "../../../workers/swarms/types/malt";
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
import { expectSdkType, swarmsClient } from "../../helpers/swarms-sdk";

const NAMES = ["Solver", "Checker", "Polisher"];
const LATENCY_MS = 300;

/** The calls of one loop, grouped by stage: generator, verifications, refinements, vote. */
function stages(calls: any[]) {
  return {
    generator: calls[0],
    checks: calls.slice(1, 4),
    refinements: calls.slice(4, 7),
    vote: calls[7],
  };
}

/** The sample number a verification or refinement input names ("check k of 3"). */
const sampleOf = (call: any) => Number(/check (\d) of 3/.exec(inputOf(call))?.[1]);

describe("MALT (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("per loop: Generator, 3 parallel checks, 3 parallel refinements (each on the answer and its own check), a Consensus vote; loop 2 improves the chosen answer; depth 4·L", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("malt");
    const res = await postSwarm(h, key, {
      name: "Proof team",
      swarm_type: "MALT",
      max_loops: 2,
      agents: NAMES.map((n) => agent(n, { llm_args: { sim_latency_ms: LATENCY_MS } })),
      task: marker,
    });
    expectSwarmSuccess(res, { swarm_type: "MALT", number_of_agents: 4 });

    const [generator, verifier, refiner] = NAMES;
    const output = res.body.output as { role: string; content: string; sample?: number }[];
    const loopRoles = [generator, verifier, verifier, verifier, refiner, refiner, refiner, "Consensus"];
    expect(output.map((t) => t.role)).to.deep.equal([...loopRoles, ...loopRoles]);
    expect(output.map((t) => t.sample ?? null)).to.deep.equal(
      Array(2).fill([null, 1, 2, 3, 1, 2, 3, null]).flat(),
      "checks and refinements are numbered, in sample order",
    );

    // (2·3+2)·L = 16 calls, in stage order; within a stage the samples ran in parallel.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(16);
    expect(calls.map(callerOf)).to.deep.equal([...loopRoles, ...loopRoles]);
    for (const loop of [0, 1]) {
      const turns = output.slice(8 * loop, 8 * loop + 8);
      const { generator: gen, checks, refinements, vote } = stages(calls.slice(8 * loop, 8 * loop + 8));
      expect(turns[0].content).to.include(conversationOf(gen));
      const answer = turns[0].content;
      // Each check sees the task and the answer, numbered; its turn is the reply to that call.
      expect(checks.map(sampleOf).sort()).to.deep.equal([1, 2, 3]);
      for (const call of checks) {
        const k = sampleOf(call);
        expect(inputOf(call)).to.include(marker).and.include(answer);
        expect(turns[k].content).to.include(conversationOf(call));
      }
      // Refinement k sees the answer and check k, never another check.
      expect(refinements.map(sampleOf).sort()).to.deep.equal([1, 2, 3]);
      for (const call of refinements) {
        const k = sampleOf(call);
        const input = inputOf(call);
        expect(input).to.include(answer).and.include(turns[k].content);
        for (const other of [1, 2, 3].filter((j) => j !== k)) expect(input).to.not.include(turns[other].content);
        expect(turns[3 + k].content).to.include(conversationOf(call));
      }
      // The vote is a forced decision over every refinement, with the refinement numbers as an enum.
      expect(vote.tool_choice).to.deep.equal({ type: "function", function: { name: "choose_refinement" } });
      expect(vote.tools[0].function.parameters.properties.chosen.enum).to.deep.equal([1, 2, 3]);
      for (const k of [1, 2, 3]) expect(inputOf(vote)).to.include(`Refinement ${k}:\n${turns[3 + k].content}`);
      // The Consensus turn names the chosen refinement and ends with it: the loop's answer.
      const chosen = Number(/^Chosen: refinement (\d)/.exec(turns[7].content)?.[1]);
      expect(chosen).to.be.oneOf([1, 2, 3]);
      expect(turns[7].content.endsWith(`Answer:\n${turns[3 + chosen].content}`)).to.equal(true);
      if (loop === 1) {
        const firstChosen = Number(/^Chosen: refinement (\d)/.exec(output[7].content)?.[1]);
        expect(inputOf(gen))
          .to.include(marker)
          .and.include(output[3 + firstChosen].content);
      } else {
        expect(inputOf(gen)).to.equal(marker);
      }
    }

    // Depth 4·L: parallel samples overlap, so the run takes about 8 call latencies, not 16.
    const depthSeconds = (8 * LATENCY_MS) / 1_000;
    expect(res.body.execution_time).to.be.at.least(depthSeconds * 0.95);
    expect(res.body.execution_time).to.be.below((16 * LATENCY_MS * 0.75) / 1_000);
  });

  it("answers 400 unless it has exactly 3 agents (Generator, Verifier, Refiner), before any LLM call", async () => {
    for (const agents of [[agent("Solver"), agent("Checker")], []]) {
      const marker = uniqueMarker("malt-count");
      const res = await postSwarm(h, key, { swarm_type: "MALT", agents, task: marker });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.detail).to.equal(
        `MALT needs exactly 3 agents, in order Generator, Verifier, Refiner (got ${agents.length})`,
      );
      expect(callsMentioning(h, marker)).to.have.length(0);
    }
  });

  it("a retried job replays every stored step, the vote included, and repeats no LLM call", async () => {
    const marker = uniqueMarker("malt-replay");
    const res = await postSwarm(h, key, { swarm_type: "MALT", agents: NAMES.map((n) => agent(n)), task: marker });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { stepKeys, recorder } = await expectReplayWithoutLlm(h, res, malt, marker, 8);
    expect(stepKeys).to.deep.equal([
      "l0/generator#0",
      "l0/refine1#0",
      "l0/refine2#0",
      "l0/refine3#0",
      "l0/verify1#0",
      "l0/verify2#0",
      "l0/verify3#0",
      "l0/vote#0",
    ]);
    expect(recorder.replayed).to.equal(8);
  });

  it("through the hosted SDK: swarms.run with swarm_type MALT answers a SwarmRunResponse", async () => {
    const marker = uniqueMarker("malt-sdk");
    const client = swarmsClient(h.baseUrl, key);
    const res = await client.swarms.run({
      name: "sdk-malt",
      swarm_type: "MALT",
      task: marker,
      agents: NAMES.map((agent_name) => ({ agent_name, model_name: "gpt-4o-mini" })),
    });
    expectSdkType("SwarmRunResponse", res, "swarms/swarms");
    expect(res.swarm_type).to.equal("MALT");
    expect(callsMentioning(h, marker)).to.have.length(8);
  });
});
