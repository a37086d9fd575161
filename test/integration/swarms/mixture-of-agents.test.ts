import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { agent, callerOf, callsMentioning, expectSwarmSuccess, inputOf, postSwarm } from "../../helpers/swarm";

/** The input an aggregator or later-layer expert gets: the task, a heading, then attributed answers. */
function withAnswers(task: string, heading: string, turns: { role: string; content: string }[]): string {
  return [task, heading, ...turns.map((t) => `${t.role}: ${t.content}`)].join("\n\n");
}

describe("MixtureOfAgents (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs the experts in parallel on the task, then the last agent aggregates their attributed answers", async () => {
    const marker = `moa1-${Date.now()}`;
    const res = await postSwarm(h, key, {
      name: "Panel",
      swarm_type: "MixtureOfAgents",
      agents: [
        // Alpha answers last although it is asked first: attribution must not follow completion order.
        agent("Alpha", { llm_args: { sim_reply: "alpha view", sim_latency_ms: 600 } }),
        agent("Beta", { llm_args: { sim_reply: "beta view" } }),
        agent("Aggregator"),
      ],
      task: marker,
    });
    expectSwarmSuccess(res, { swarm_type: "MixtureOfAgents", number_of_agents: 3 });

    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(3); // (N−1)·L+1 with N=3, L=1
    expect(calls.slice(0, 2).map(callerOf).sort()).to.deep.equal(["Alpha", "Beta"]);
    expect(callerOf(calls[2])).to.equal("Aggregator");
    expect(calls.slice(0, 2).map(inputOf)).to.deep.equal([marker, marker]);
    expect(inputOf(calls[2])).to.equal(`${marker}\n\nAnswers of the experts:\n\nAlpha: alpha view\n\nBeta: beta view`);

    // The experts really ran at the same time: Beta was asked while Alpha's 600 ms answer was pending.
    const arrivals = h.sim.journal
      .filter((e: any) => JSON.stringify(e.body?.messages ?? "").includes(marker))
      .map((e: any) => Date.parse(e.at));
    expect(Math.abs(arrivals[1] - arrivals[0])).to.be.below(400);

    expect(res.body.output.map((t: any) => t.role)).to.deep.equal(["Alpha", "Beta", "Aggregator"]);
    expect(res.body.output.slice(0, 2).map((t: any) => t.content)).to.deep.equal(["alpha view", "beta view"]);
    // The simulator quotes the input it answers, so this is the aggregator's reply to its own input.
    expect(res.body.output[2].content).to.be.a("string").and.include(`You said "${marker}`);
  });

  it("with max_loops 2 feeds each layer the previous layer's answers and the aggregator only the last layer's", async () => {
    const marker = `moa2-${Date.now()}`;
    const res = await postSwarm(h, key, {
      swarm_type: "MixtureOfAgents",
      max_loops: 2,
      agents: [agent("Historian"), agent("Economist"), agent("Engineer"), agent("Editor")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ swarm_type: "MixtureOfAgents", number_of_agents: 4 });
    const output = res.body.output as { role: string; content: string }[];
    expect(output.map((t) => t.role)).to.deep.equal([
      "Historian",
      "Economist",
      "Engineer",
      "Historian",
      "Economist",
      "Engineer",
      "Editor",
    ]);
    const [layer1, layer2] = [output.slice(0, 3), output.slice(3, 6)];
    // Each layer's answers differ from the previous one's, so the checks below tell the layers apart.
    layer2.forEach((t, i) => expect(t.content).to.not.equal(layer1[i].content));

    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(7); // (N−1)·L+1 with N=4, L=2
    const experts = ["Economist", "Engineer", "Historian"];
    expect(calls.slice(0, 3).map(callerOf).sort()).to.deep.equal(experts);
    expect(calls.slice(3, 6).map(callerOf).sort()).to.deep.equal(experts);
    expect(callerOf(calls[6])).to.equal("Editor");
    for (const call of calls.slice(0, 3)) expect(inputOf(call)).to.equal(marker);
    const layer2Input = withAnswers(marker, "Answers of the previous layer:", layer1);
    for (const call of calls.slice(3, 6)) expect(inputOf(call), callerOf(call)).to.equal(layer2Input);
    expect(inputOf(calls[6])).to.equal(withAnswers(marker, "Answers of the experts:", layer2));
    // The simulator quotes what it answers: each turn is the reply to its own layer's input.
    layer1.forEach((t) => expect(t.content).to.include(`You said "${marker}"`));
    layer2.forEach((t) => expect(t.content).to.include(`You said "${marker}\n\nAnswers of the previous layer:`));
    expect(output[6].content).to.include(`You said "${marker}\n\nAnswers of the experts:`);
  });

  it("needs an expert and an aggregator (400 with one agent, no LLM call)", async () => {
    const marker = `moa-one-${Date.now()}`;
    const res = await postSwarm(h, key, { swarm_type: "MixtureOfAgents", agents: [agent("Solo")], task: marker });
    expect(res.status).to.equal(400);
    expect(res.body.detail).to.include("MixtureOfAgents needs at least 2 agents");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });
});
