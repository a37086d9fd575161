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

describe("ConcurrentWorkflow (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs every agent in parallel for max_loops rounds, records turns in agent order (not completion order), and feeds round 2 every round-1 answer, attributed", async function () {
    this.timeout(30_000);
    const marker = `concurrent-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    // The FIRST agent is the slowest: an implementation recording completion order would put it last.
    const latencies = { Alpha: 900, Beta: 600, Gamma: 600 };
    const names = Object.keys(latencies) as (keyof typeof latencies)[];
    const res = await postSwarm(h, key, {
      name: "Parallel panel",
      swarm_type: "ConcurrentWorkflow",
      max_loops: 2,
      agents: names.map((n) => agent(n, { llm_args: { sim_latency_ms: latencies[n] } })),
      task: marker,
    });
    expectSwarmSuccess(res, { swarm_type: "ConcurrentWorkflow", swarm_name: "Parallel panel", number_of_agents: 3 });

    const output: { role: string; content: string }[] = res.body.output;
    expect(output.map((t) => t.role)).to.deep.equal([...names, ...names]);

    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(6);
    const round1 = calls.filter((c) => inputOf(c) === marker);
    const round2 = calls.filter((c) => inputOf(c) !== marker);
    expect(round1.map(callerOf).sort()).to.deep.equal([...names].sort());
    expect(round2.map(callerOf).sort()).to.deep.equal([...names].sort());

    // Each turn is the reply to the call its own agent made in that round.
    names.forEach((name, i) => {
      const r1 = round1.find((c) => callerOf(c) === name)!;
      const r2 = round2.find((c) => callerOf(c) === name)!;
      expect(output[i].content, `round 1 turn of ${name}`).to.include(conversationOf(r1));
      expect(output[names.length + i].content, `round 2 turn of ${name}`).to.include(conversationOf(r2));
    });

    // Round 2: the task plus every agent's round-1 answer, attributed to the agent that gave it.
    for (const call of round2) {
      const input = inputOf(call);
      expect(input.startsWith(marker), "round-2 input starts with the task").to.equal(true);
      names.forEach((name, i) =>
        expect(input, `round-2 input of ${callerOf(call)}`).to.include(`${name}: ${output[i].content}`),
      );
      // Every agent sees the same round-2 input.
      expect(input).to.equal(inputOf(round2[0]));
    }

    // Wall time: the calls overlapped. Sequentially they would take the sum of all latencies.
    const sumSeconds = (2 * Object.values(latencies).reduce((a, b) => a + b, 0)) / 1_000;
    const slowestPathSeconds = (2 * Math.max(...Object.values(latencies))) / 1_000;
    expect(res.body.execution_time).to.be.a("number");
    expect(res.body.execution_time).to.be.at.least(slowestPathSeconds * 0.95);
    expect(res.body.execution_time).to.be.below(0.75 * sumSeconds);
  });

  it("runs a single round on the task alone with max_loops 1, one turn per agent in agent order", async () => {
    const marker = `concurrent-one-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const res = await postSwarm(h, key, {
      swarm_type: "ConcurrentWorkflow",
      agents: [
        agent("First", { llm_args: { sim_latency_ms: 300, sim_reply: `first-${marker}` } }),
        agent("Second", { llm_args: { sim_reply: `second-${marker}` } }),
      ],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.output).to.deep.equal([
      { role: "First", content: `first-${marker}` },
      { role: "Second", content: `second-${marker}` },
    ]);
    expect(res.body.number_of_agents).to.equal(2);
    const calls = callsMentioning(h, marker);
    expect(calls.map(inputOf)).to.deep.equal([marker, marker]);
  });
});
