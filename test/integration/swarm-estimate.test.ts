import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { agent, entriesMentioning, postSwarm, uniqueMarker } from "../helpers/swarm";

/** `POST /v1/swarm/estimate`: calls, tokens and cost from the request alone, checked against real runs. */
describe("POST /v1/swarm/estimate", function () {
  this.timeout(120_000);
  let h: Harness;
  let key: string;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
  });

  const estimate = (body: unknown) => request(h.baseUrl, "POST", "/v1/swarm/estimate", { key, body });

  /** Estimates `body`, runs it, and returns both with the calls the run made per agent (its stored LLM steps). */
  async function estimateThenRun(body: Record<string, unknown>) {
    const marker = uniqueMarker("estimate");
    const withTask = { ...body, ...(body.tasks ? {} : { task: `${body.task ?? "Think about bees"} (${marker})` }) };
    const est = await estimate(withTask);
    expect(est.status, JSON.stringify(est.body)).to.equal(200);
    const ran = await postSwarm(h, key, withTask);
    expect(ran.status, JSON.stringify(ran.body)).to.equal(200);
    const steps: { agent_name: string; n: number }[] = await h.deps.ds.query(
      `SELECT s.agent_name, count(*)::int AS n FROM run_steps s JOIN runs r ON r.id = s.run_id
        WHERE r.job_id = $1 AND s.role <> 'tool' GROUP BY s.agent_name`,
      [ran.body.job_id],
    );
    const made = Object.fromEntries(steps.map((s) => [s.agent_name, s.n]));
    return { est: est.body, ran: ran.body, made, marker };
  }

  /** The bill and every count of the run fall within the estimate's ranges. */
  function expectWithin(est: any, ran: any, made: Record<string, number>) {
    const within = (value: number, span: { min: number; max: number | null }, what: string) => {
      expect(value, `${what} ${value} below ${span.min}`).to.be.at.least(span.min);
      if (span.max !== null) expect(value, `${what} ${value} above ${span.max}`).to.be.at.most(span.max);
    };
    const bill = ran.usage.billing_info.total_cost;
    within(bill, est.totals.cost, "bill");
    within(ran.usage.input_tokens, est.totals.input_tokens, "input tokens");
    within(ran.usage.output_tokens, est.totals.output_tokens, "output tokens");
    const total = Object.values(made).reduce((a, b) => a + b, 0);
    within(total, est.totals.calls, "calls");
    for (const [name, n] of Object.entries(made)) {
      const estimated = est.agents.find((a: any) => a.agent_name === name);
      expect(estimated, `${name} made calls the estimate does not name`).to.not.equal(undefined);
      within(n, estimated.calls, `${name}'s calls`);
    }
  }

  const deterministic: [string, Record<string, unknown>][] = [
    ["SequentialWorkflow", { swarm_type: "SequentialWorkflow", agents: [agent("A"), agent("B"), agent("C")] }],
    [
      "ConcurrentWorkflow, 2 loops",
      { swarm_type: "ConcurrentWorkflow", max_loops: 2, agents: [agent("A"), agent("B")] },
    ],
    [
      "AgentRearrange",
      {
        swarm_type: "AgentRearrange",
        rearrange_flow: "A -> B, C -> A",
        agents: [agent("A"), agent("B"), agent("C")],
      },
    ],
    [
      "MixtureOfAgents",
      { swarm_type: "MixtureOfAgents", max_loops: 2, agents: [agent("X"), agent("Y"), agent("Agg")] },
    ],
    ["RoundRobin", { swarm_type: "RoundRobin", max_loops: 2, agents: [agent("A"), agent("B")] }],
    [
      "DebateWithJudge",
      { swarm_type: "DebateWithJudge", max_loops: 2, agents: [agent("Pro"), agent("Con"), agent("Judge")] },
    ],
    ["CouncilAsAJudge", { swarm_type: "CouncilAsAJudge", agents: [agent("Clarity"), agent("Accuracy")] }],
    [
      "BatchedGridWorkflow",
      { swarm_type: "BatchedGridWorkflow", tasks: ["one (grid)", "two (grid)"], agents: [agent("A"), agent("B")] },
    ],
    [
      "an agent with its own loops, run once per task",
      {
        swarm_type: "SequentialWorkflow",
        tasks: ["first (tasks)", "second (tasks)"],
        agents: [agent("A", { max_loops: 2 }), agent("B")],
      },
    ],
  ];
  for (const [name, body] of deterministic) {
    it(`${name}: the estimated calls are the calls the run made, and the bill is within the cost range`, async () => {
      const { est, ran, made } = await estimateThenRun(body);
      expect(est.exact_calls, JSON.stringify(est)).to.equal(true);
      expect(est.why).to.deep.equal([]);
      const estimated = Object.fromEntries(
        est.agents.filter((a: any) => a.calls.max > 0).map((a: any) => [a.agent_name, a.calls.min]),
      );
      expect(made).to.deep.equal(estimated);
      expectWithin(est, ran, made);
    });
  }

  it("a type whose calls the model decides gives ranges that hold the run, and says why", async () => {
    const router = await estimateThenRun({
      swarm_type: "MultiAgentRouter",
      agents: [agent("Billing"), agent("Support"), agent("Sales")],
    });
    expect(router.est.exact_calls).to.equal(false);
    expect(router.est.why.join(" ")).to.include("router chooses");
    expect(router.est.agents.find((a: any) => a.agent_name === "Billing").calls).to.deep.equal({ min: 0, max: 1 });
    expectWithin(router.est, router.ran, router.made);

    const voting = await estimateThenRun({ swarm_type: "MajorityVoting", agents: [agent("A"), agent("B")] });
    expect(voting.est.agents.find((a: any) => a.job === "Consensus").calls).to.deep.equal({ min: 1, max: 2 });
    expect(voting.est.why.join(" ")).to.include("repair");
    expectWithin(voting.est, voting.ran, voting.made);
  });

  it("counts the per-agent charge and the flex discount, and makes no LLM call and no run", async () => {
    const marker = uniqueMarker("no-call");
    const body = { swarm_type: "SequentialWorkflow", task: `Never run (${marker})`, agents: [agent("Solo")] };
    const [{ n: runsBefore }] = await h.deps.ds.query(`SELECT count(*)::int AS n FROM runs`);
    const standard = await estimate(body);
    const flex = await estimate({ ...body, service_tier: "flex" });
    expect(standard.status).to.equal(200);
    expect(entriesMentioning(h, marker)).to.deep.equal([]);
    const [{ n: runsAfter }] = await h.deps.ds.query(`SELECT count(*)::int AS n FROM runs`);
    expect(runsAfter).to.equal(runsBefore);
    const [solo] = standard.body.agents;
    expect(solo).to.include({ agent_name: "Solo", job: null });
    expect(solo.calls).to.deep.equal({ min: 1, max: 1 });
    // The least cost is the per-agent charge and the fewest tokens at the (night) discounted price.
    expect(solo.cost.min).to.be.greaterThan(0.01 - 1e-9);
    expect(flex.body.agents[0].cost.min).to.be.below(solo.cost.min);
    expect(flex.body.agents[0].cost.max).to.equal(solo.cost.max);
    expect(standard.headers.get("x-ratelimit-remaining-minute")).to.match(/^\d+$/);
  });

  it("refuses what POST /v1/swarm/completions refuses, with the same status and body", async () => {
    const refused = [
      { swarm_type: "DebateWithJudge", task: "x", agents: [agent("Pro"), agent("Con")] },
      { swarm_type: "AgentRearrange", task: "x", rearrange_flow: "A -> Nobody", agents: [agent("A")] },
      { swarm_type: "NoSuchType", task: "x", agents: [agent("A")] },
      { swarm_type: "SequentialWorkflow", agents: [agent("A")] },
      { swarm_type: "SequentialWorkflow", task: "x", max_loops: "many", agents: [agent("A")] },
      { swarm_type: "MALT", task: "x", agents: [agent("Generator"), agent("Verifier")] },
    ];
    for (const body of refused) {
      const est = await estimate(body);
      const run = await postSwarm(h, key, body, { prefer: "respond-async" });
      expect(est.status, JSON.stringify(est.body)).to.be.within(400, 499);
      expect(est.status, JSON.stringify(body)).to.equal(run.status);
      expect(est.body).to.deep.equal(run.body);
    }
  });
});
