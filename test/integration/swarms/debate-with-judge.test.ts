import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import {
  agent,
  callerOf,
  callsMentioning,
  expectSwarmSuccess,
  inputOf,
  postSwarm,
  conversationOf,
} from "../../helpers/swarm";

describe("DebateWithJudge (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs Pro, Con, Judge per round; round 2 argues over the judge's synthesis; the last judge turn gives the verdict", async () => {
    const marker = `debate-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const names = ["Advocate", "Skeptic", "Arbiter"];
    const res = await postSwarm(h, key, {
      name: "Debate",
      swarm_type: "DebateWithJudge",
      max_loops: 2,
      agents: names.map((n) => agent(n)),
      task: marker,
    });
    expectSwarmSuccess(res, { swarm_type: "DebateWithJudge", number_of_agents: 3 });

    // Exactly [Pro, Con, Judge] per round: role = agent name, content = text, nothing else.
    const output = res.body.output as { role: string; content: string }[];
    expect(output.map((t) => t.role)).to.deep.equal([...names, ...names]);
    for (const turn of output) {
      expect(Object.keys(turn).sort()).to.deep.equal(["content", "role"]);
      expect(turn.content).to.be.a("string").and.not.equal("");
    }

    // 3·L calls, strictly in order, each turn the reply to its own call.
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal([...names, ...names]);
    calls.forEach((call, i) => expect(output[i].content, `turn ${i}`).to.include(conversationOf(call)));

    const [pro1, con1, judge1, pro2, con2, judge2] = calls.map(inputOf);
    expect(pro1).to.include(marker).and.include("Argue for");
    // Con answers Pro; the Judge sees both.
    expect(con1).to.include(marker).and.include(output[0].content);
    expect(judge1).to.include(marker).and.include(output[0].content).and.include(output[1].content);
    expect(con2).to.include(output[3].content).and.not.include(output[0].content);
    expect(judge2).to.include(output[3].content).and.include(output[4].content);
    // Round 2 argues over round 1's synthesis, every side of it (spec rule 3); round 1 had none to see.
    expect(pro2).to.include(marker).and.include(output[2].content);
    expect(con2, "Con builds on the synthesis").to.include(marker).and.include(output[2].content);
    expect(judge2, "the Judge builds on its synthesis").to.include(output[2].content);
    for (const input of [con1, judge1]) expect(input).to.not.include("synthesis of the previous round");
    expect(pro1).to.not.include("synthesis of the previous round");
    // Only the final judge turn is asked for the verdict.
    expect(judge1).to.not.include("verdict");
    expect(judge2).to.include("final round").and.include("verdict");
  });

  it("with max_loops 1 the only judge turn gives the verdict", async () => {
    const marker = `debate-one-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const res = await postSwarm(h, key, {
      swarm_type: "DebateWithJudge",
      agents: [agent("Pro"), agent("Con"), agent("Judge", { llm_args: { sim_reply: `verdict-${marker}` } })],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.output).to.have.length(3);
    expect(res.body.output[2]).to.deep.equal({ role: "Judge", content: `verdict-${marker}` });
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(["Pro", "Con", "Judge"]);
    expect(inputOf(calls[2])).to.include("verdict");
  });

  it("answers 400 when the debate does not have exactly 3 agents, before any LLM call", async () => {
    const marker = `debate-two-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const res = await postSwarm(h, key, {
      swarm_type: "DebateWithJudge",
      agents: [agent("Pro"), agent("Con")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.detail).to.be.a("string").and.include("exactly 3");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });
});
