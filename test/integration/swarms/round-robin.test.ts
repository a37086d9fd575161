import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { agent, callerOf, callsMentioning, expectSwarmSuccess, inputOf, postSwarm } from "../../helpers/swarm";

/** The transcript of docs/swarm-types.md ("Common rules"): the task, then the first `upTo` turns as `<name>: <content>` blocks. */
function transcript(task: string, turns: { role: string; content: string }[], upTo: number): string {
  return [task, ...turns.slice(0, upTo).map((t) => `${t.role}: ${t.content}`)].join("\n\n");
}

describe("RoundRobin (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs max_loops rounds in request order, each turn told its round and neighbours, on the transcript", async () => {
    const marker = `rr2-${Date.now()}`;
    const res = await postSwarm(h, key, {
      swarm_type: "RoundRobin",
      max_loops: 2,
      agents: [agent("Ann"), agent("Bo"), agent("Cy")],
      task: marker,
    });
    expectSwarmSuccess(res, { swarm_type: "RoundRobin", number_of_agents: 3 });
    const output = res.body.output as { role: string; content: string }[];
    const order = ["Ann", "Bo", "Cy", "Ann", "Bo", "Cy"];
    expect(output.map((t) => t.role)).to.deep.equal(order);

    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(order); // N·L calls, one per turn, in turn order
    const headers = [
      "Round 1 of 2. Before you: nobody, you open the discussion. After you: Bo.",
      "Round 1 of 2. Before you: Ann. After you: Cy.",
      "Round 1 of 2. Before you: Bo. After you: Ann.",
      "Round 2 of 2. Before you: Cy. After you: Bo.",
      "Round 2 of 2. Before you: Ann. After you: Cy.",
      "Round 2 of 2. Before you: Bo. After you: nobody, you close the discussion.",
    ];
    // Each input is the turn header, then the task and every earlier turn, attributed.
    calls.forEach((call, k) =>
      expect(inputOf(call), `turn ${k}`).to.equal(`${headers[k]}\n\n${transcript(marker, output, k)}`),
    );
    // The simulator quotes what it answers: each turn is the reply to its own header.
    output.forEach((t, k) => expect(t.content, `turn ${k}`).to.include(`You said "${headers[k]}`));
  });

  it("with max_loops 1 and two agents makes N calls, one round", async () => {
    const marker = `rr1-${Date.now()}`;
    const res = await postSwarm(h, key, {
      swarm_type: "RoundRobin",
      agents: [agent("Left"), agent("Right", { llm_args: { sim_reply: "done" } })],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ swarm_type: "RoundRobin", number_of_agents: 2 });
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(["Left", "Right"]);
    expect(inputOf(calls[0])).to.equal(
      `Round 1 of 1. Before you: nobody, you open the discussion. After you: Right.\n\n${marker}`,
    );
    expect(inputOf(calls[1])).to.equal(
      `Round 1 of 1. Before you: Left. After you: nobody, you close the discussion.\n\n${marker}\n\nLeft: ${res.body.output[0].content}`,
    );
    expect(res.body.output).to.deep.equal([
      { role: "Left", content: res.body.output[0].content },
      { role: "Right", content: "done" },
    ]);
    expect(res.body.output[0].content).to.include(`You said "Round 1 of 1.`);
  });

  it("needs at least 2 agents (400, no LLM call)", async () => {
    const marker = `rr-one-${Date.now()}`;
    const res = await postSwarm(h, key, { swarm_type: "RoundRobin", agents: [agent("Solo")], task: marker });
    expect(res.status).to.equal(400);
    expect(res.body.detail).to.include("RoundRobin needs at least 2 agents");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });
});
