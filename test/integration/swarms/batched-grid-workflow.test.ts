import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { agent, callerOf, callsMentioning, inputOf, postSwarm, conversationOf } from "../../helpers/swarm";

describe("BatchedGridWorkflow (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs every agent on every task, refines each pair's own answer for max_loops rounds, in (round, task, agent) order with task_index", async () => {
    const marker = `grid-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const tasks = [0, 1, 2].map((t) => `${marker} task ${t}`);
    const names = ["Solver", "Checker"];
    // The first agent is slow: recording in completion order would put its turns last.
    const res = await postSwarm(h, key, {
      swarm_type: "BatchedGridWorkflow",
      max_loops: 2,
      agents: [agent("Solver", { llm_args: { sim_latency_ms: 300 } }), agent("Checker")],
      tasks,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: "success", swarm_type: "BatchedGridWorkflow", number_of_agents: 2 });

    const output = res.body.output as { role: string; content: string; task_index: number }[];
    const expected = [0, 1].flatMap(() => [0, 1, 2].flatMap((t) => names.map((role) => ({ role, task_index: t }))));
    expect(output.map(({ role, task_index }) => ({ role, task_index }))).to.deep.equal(expected);

    // N·T·L calls; round 1 is each pair's task alone.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(12);
    const round1 = calls.filter((c) => tasks.includes(inputOf(c)));
    expect(round1).to.have.length(6);
    const round2 = calls.filter((c) => !round1.includes(c));

    output.forEach((turn, k) => {
      const round = k < 6 ? round1 : round2;
      const task = tasks[turn.task_index];
      const call = round.find((c) => callerOf(c) === turn.role && inputOf(c).startsWith(task));
      expect(call, `call of turn ${k}`).to.not.equal(undefined);
      expect(turn.content, `turn ${k} is its own call's reply`).to.include(conversationOf(call));
      if (k >= 6) {
        // Round 2 refines the pair's own round-1 answer and nothing else.
        const input = inputOf(call);
        expect(input)
          .to.include(output[k - 6].content)
          .and.include("improve");
        output.slice(0, 6).forEach((other, j) => j !== k - 6 && expect(input).to.not.include(other.content));
        tasks.forEach((other) => other !== task && expect(input).to.not.include(other));
      }
    });
  });

  it("puts the run's messages before each cell's task", async () => {
    const marker = `grid-ctx-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const res = await postSwarm(h, key, {
      swarm_type: "BatchedGridWorkflow",
      agents: [agent("Only")],
      messages: [{ role: "user", content: `context ${marker}` }],
      tasks: ["first cell", "second cell"],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    expect(calls.map(inputOf).sort()).to.deep.equal([
      `user: context ${marker}\n\nfirst cell`,
      `user: context ${marker}\n\nsecond cell`,
    ]);
    expect(res.body.output.map((t: any) => t.task_index)).to.deep.equal([0, 1]);
  });

  it("answers 400 without tasks, before any LLM call", async () => {
    const marker = `grid-none-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const res = await postSwarm(h, key, { swarm_type: "BatchedGridWorkflow", agents: [agent("Solver")], task: marker });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.detail).to.be.a("string").and.include("tasks");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });
});
