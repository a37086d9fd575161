import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import {
  agent,
  callerOf,
  callsMentioning,
  entriesMentioning,
  inputOf,
  postSwarm,
  uniqueMarker,
} from "../../helpers/swarm";

describe("AgentRearrange (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs the flow's steps in order, a step's agents in parallel on the transcript as it stood when the step began, and repeats the flow max_loops times", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("rearrange");
    const coderReply = `coder-answer-${marker.length}-${Math.random().toString(36).slice(2)}`;
    const testerReply = `tester-answer-${marker.length}-${Math.random().toString(36).slice(2)}`;
    const res = await postSwarm(h, key, {
      name: "Build team",
      swarm_type: "AgentRearrange",
      max_loops: 2,
      rearrange_flow: "Planner -> Coder, Tester -> Planner",
      agents: [
        agent("Planner"),
        // Coder and Tester are slow enough that running them one after the other would show in the journal.
        agent("Coder", { llm_args: { sim_reply: coderReply, sim_latency_ms: 500 } }),
        agent("Tester", { llm_args: { sim_reply: testerReply, sim_latency_ms: 500 } }),
      ],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({
      status: "success",
      swarm_type: "AgentRearrange",
      swarm_name: "Build team",
      number_of_agents: 3,
    });

    const roles = ["Planner", "Coder", "Tester", "Planner"];
    const output: { role: string; content: string }[] = res.body.output;
    expect(output.map((t) => t.role)).to.deep.equal([...roles, ...roles]);
    expect(output[1].content).to.equal(coderReply);
    expect(output[2].content).to.equal(testerReply);
    expect(output[5].content).to.equal(coderReply);
    expect(output[6].content).to.equal(testerReply);
    // Planner appears twice per loop; its turns are distinct answers, not replays.
    expect(new Set([output[0].content, output[3].content, output[4].content, output[7].content]).size).to.equal(4);

    const entries = entriesMentioning(h, marker);
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(8);
    const callers = calls.map(callerOf);
    expect(callers[0]).to.equal("Planner");
    expect([...callers.slice(1, 3)].sort()).to.deep.equal(["Coder", "Tester"]);
    expect(callers.slice(3, 5)).to.deep.equal(["Planner", "Planner"]);
    expect([...callers.slice(5, 7)].sort()).to.deep.equal(["Coder", "Tester"]);
    expect(callers[7]).to.equal("Planner");

    const transcript = (upTo: number) =>
      [marker, ...output.slice(0, upTo).map((t) => `${t.role}: ${t.content}`)].join("\n\n");
    // Step 1 of loop 1: the task alone.
    expect(inputOf(calls[0])).to.equal(marker);
    for (const [first, upTo] of [
      [1, 1],
      [5, 5],
    ]) {
      const step = calls.slice(first, first + 2);
      const coder = step.find((c) => callerOf(c) === "Coder")!;
      const tester = step.find((c) => callerOf(c) === "Tester")!;
      // Both parallel agents see the transcript as it stood when their step began...
      expect(inputOf(coder)).to.equal(transcript(upTo));
      expect(inputOf(tester)).to.equal(transcript(upTo));
      // ...so neither sees the other's answer of this step (in loop 1 there is no earlier one at all).
      if (first === 1) {
        expect(inputOf(tester), "Tester's input must not hold Coder's answer").to.not.include(coderReply);
        expect(inputOf(coder), "Coder's input must not hold Tester's answer").to.not.include(testerReply);
      }
      // Parallel, not one after the other: the second call started before the first (500 ms) could have answered.
      const [a, b] = [entries[first], entries[first + 1]].map((e: any) => Date.parse(e.at));
      expect(Math.abs(b - a), "Coder and Tester were called together").to.be.below(400);
    }
    // The closing Planner of each loop sees both parallel answers; loop 2 continues the same transcript.
    expect(inputOf(calls[3])).to.equal(transcript(3));
    expect(inputOf(calls[4])).to.equal(transcript(4));
    expect(inputOf(calls[7])).to.equal(transcript(7));
  });

  describe("a flow that cannot run is refused with 400 before any LLM call", () => {
    const agents = [agent("Alpha"), agent("Beta")];

    async function refused(body: Record<string, unknown>) {
      const marker = uniqueMarker("bad-flow");
      const res = await postSwarm(h, key, { swarm_type: "AgentRearrange", agents, task: marker, ...body });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.code).to.equal("INVALID_SWARM");
      expect(res.body.detail).to.be.a("string");
      expect(callsMentioning(h, marker)).to.have.length(0);
      return res.body.detail as string;
    }

    it("names an agent that is not in the swarm", async () => {
      const detail = await refused({ rearrange_flow: "Alpha -> Ghost, Beta" });
      expect(detail).to.include("Ghost");
      expect(detail).to.match(/not in the swarm|unknown/i);
    });

    it("has an empty step", async () => {
      const detail = await refused({ rearrange_flow: "Alpha -> -> Beta" });
      expect(detail)
        .to.match(/step 2/i)
        .and.match(/empty/i);
    });

    it("has an empty agent name inside a step", async () => {
      const detail = await refused({ rearrange_flow: "Alpha -> Beta, " });
      expect(detail).to.match(/empty/i);
    });

    it("is missing", async () => {
      const detail = await refused({});
      expect(detail).to.match(/rearrange_flow/);
    });

    it("is blank", async () => {
      const detail = await refused({ rearrange_flow: "   " });
      expect(detail).to.match(/rearrange_flow/);
    });
  });
});
