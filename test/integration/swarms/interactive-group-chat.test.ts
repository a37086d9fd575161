import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import {
  agent,
  callerOf,
  callsMentioning,
  conversationOf,
  inputOf,
  postSwarm,
  uniqueMarker,
} from "../../helpers/swarm";

describe("InteractiveGroupChat (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("only the agents the task @mentions answer, in order of mention; a reply's @mention calls that agent next, addressed or not; max_loops rounds on the whole transcript", async () => {
    const marker = uniqueMarker("igc");
    const task = `@Critic and @Data Analyst, please review ${marker}`;
    const res = await postSwarm(h, key, {
      name: "Desk",
      swarm_type: "InteractiveGroupChat",
      max_loops: 2,
      agents: [
        agent("Planner"),
        // Calls on Planner (never addressed by the task) and on itself (ignored).
        agent("Critic", { llm_args: { sim_reply: `@Planner, your view? @Critic out. (${marker})` } }),
        agent("Data Analyst"),
        // Mentions Critic, who already spoke this round: ignored, so the round ends.
        agent("Silent", { llm_args: { sim_reply: "never called" } }),
      ],
      task,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: "success", swarm_type: "InteractiveGroupChat", number_of_agents: 3 });

    // Per round: Critic (first mention), Planner (called by Critic, ahead of the rest), Data Analyst.
    const round = ["Critic", "Planner", "Data Analyst"];
    const output = res.body.output as { role: string; content: string }[];
    expect(output.map((t) => t.role)).to.deep.equal([...round, ...round]);
    for (const turn of output) expect(Object.keys(turn).sort()).to.deep.equal(["content", "role"]);

    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal([...round, ...round]);
    calls.forEach((call, i) => {
      const input = inputOf(call);
      // The whole transcript so far, in order, then the members and whom to answer as.
      const transcript = [task, ...output.slice(0, i).map((turn) => `${turn.role}: ${turn.content}`)].join("\n\n");
      expect(input.startsWith(`${transcript}\n\nMembers of this chat`), `input of call ${i}`).to.equal(true);
      expect(input).to.include("- Planner: Planner does its part").and.include("- Silent: Silent does its part");
      expect(input).to.include(`Respond as ${callerOf(call)}`);
      if (callerOf(call) !== "Critic") expect(output[i].content).to.include(conversationOf(call));
    });
  });

  it("without a mention of an agent in the task, every agent answers once per round in request order: calls and depth N·L", async function () {
    this.timeout(20_000);
    const marker = uniqueMarker("igc-all");
    const latency = 250;
    const names = ["Ann", "Bob", "Cy"];
    const res = await postSwarm(h, key, {
      swarm_type: "InteractiveGroupChat",
      max_loops: 2,
      agents: names.map((n) => agent(n, { llm_args: { sim_latency_ms: latency } })),
      task: `@Nobody knows: ${marker}`,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.output.map((t: any) => t.role)).to.deep.equal([...names, ...names]);
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal([...names, ...names]);
    // Turns wait for each other: the wall time is the sum of the 6 calls.
    expect(res.body.execution_time).to.be.at.least((6 * latency * 0.95) / 1_000);
  });

  it("answers 400 without agents or with two agents of one name, before any LLM call", async () => {
    const cases: [unknown[], string][] = [
      [[], "InteractiveGroupChat needs at least 1 agent (got 0)"],
      [[agent("Twin"), agent("Twin")], "Agent names must be unique within a swarm: Twin"],
    ];
    for (const [agents, detail] of cases) {
      const marker = uniqueMarker("igc-400");
      const res = await postSwarm(h, key, { swarm_type: "InteractiveGroupChat", agents, task: `@Twin ${marker}` });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.detail).to.equal(detail);
      expect(callsMentioning(h, marker)).to.have.length(0);
    }
  });
});
