import { expect } from "chai";
import { decide, DecisionError } from "../../../workers/swarms/structured-decision";
import {
  hierarchicalSwarm,
  ordersProblem,
  ordersTool,
  renderOrders,
  runOrders,
  type DirectorDecision,
} from "../../../workers/swarms/types/hierarchical-swarm";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { inProcessSwarm } from "../../helpers/swarm-fixture";
import {
  agent,
  callerOf,
  callsMentioning,
  conversationOf,
  entriesMentioning,
  expectReplayWithoutLlm,
  inputOf,
  postSwarm,
  storedStepCount,
  uniqueMarker,
} from "../../helpers/swarm";

const unique = (label: string) => uniqueMarker(`hs-${label}`);

function localSwarm(agents: ReturnType<typeof agent>[], opening: string, parallel = 8) {
  return inProcessSwarm("HierarchicalSwarm", { agents }, undefined, { opening, parallel });
}

describe("HierarchicalSwarm (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  /** The director's recorded decisions of a run, by loop. */
  async function decisions(runId: string, director = "Director"): Promise<DirectorDecision[]> {
    const steps = await h.deps.ds.query(
      "SELECT step_key, output FROM run_steps WHERE run_id = $1 AND agent_name = $2 AND step_key LIKE 'l%/director#%' ORDER BY step_key",
      [runId, director],
    );
    return steps.map((s: any) => JSON.parse(s.output.tool_calls[0].function.arguments));
  }

  it("a Director plans and orders through a forced decision, ordered workers get task, plan and order, and the Director synthesises", async () => {
    const marker = unique("one");
    const names = ["Alpha", "Beta", "Gamma"];
    const res = await postSwarm(h, key, {
      swarm_type: "HierarchicalSwarm",
      agents: [agent("Alpha", { model_name: "gpt-4o-mini" }), agent("Beta"), agent("Gamma")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.swarm_type).to.equal("HierarchicalSwarm");
    const [decision] = await decisions(res.body.job_id);
    const ordered = decision.orders.map((o) => o.agent);
    expect(ordered.length).to.be.at.least(1);
    expect(res.body.number_of_agents, "the Director counts").to.equal(1 + new Set(ordered).size);

    // Calls: 1 + orders, + 1.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(1 + ordered.length + 1);
    const [orderCall, ...rest] = calls;
    const synthesisCall = rest.pop()!;
    expect(callerOf(orderCall)).to.equal("Director");
    expect(orderCall.model, "internal director uses the first agent's model").to.equal("gpt-4o-mini");
    expect(orderCall.tool_choice).to.deep.equal({ type: "function", function: { name: "give_orders" } });
    const schema = orderCall.tools[0].function.parameters;
    expect(schema.properties.orders.items.properties.agent.enum).to.deep.equal(names);
    expect(schema.required).to.deep.equal(["plan", "orders"]);
    expect(schema.properties).to.not.have.property("done");
    const orderInput = inputOf(orderCall);
    expect(orderInput).to.include(marker);
    for (const name of names) expect(orderInput).to.include(`- ${name}: ${name} does its part`);

    // Output: Director (plan and orders), workers in order-list order, Director synthesis.
    const output = res.body.output as { role: string; content: string }[];
    expect(output.map((t) => t.role)).to.deep.equal(["Director", ...ordered, "Director"]);
    expect(output[0].content).to.equal(renderOrders(decision));
    expect(output[0].content).to.include(decision.plan).and.include(`- ${ordered[0]}: ${decision.orders[0].task}`);
    rest.forEach((call) => expect(call.tools, "workers get no tools").to.equal(undefined));
    decision.orders.forEach((order, i) => {
      const call = rest.find((c) => callerOf(c) === order.agent)!;
      const input = inputOf(call);
      expect(input.startsWith(`Task:\n${marker}`)).to.equal(true);
      expect(input).to.include(`The Director's plan:\n${decision.plan}`).and.include(`Your order:\n${order.task}`);
      expect(output[1 + i].content).to.include(conversationOf(call));
    });
    expect(callerOf(synthesisCall)).to.equal("Director");
    expect(synthesisCall.tools).to.equal(undefined);
    expect(output.at(-1)!.content).to.include(conversationOf(synthesisCall));
    ordered.forEach((name, i) =>
      expect(inputOf(synthesisCall)).to.include(
        `${name} (order: ${decision.orders[i].task}):\n${output[1 + i].content}`,
      ),
    );
  });

  it("max_loops 2: the Director reviews the results with a done flag, then orders again or ends, and always synthesises", async () => {
    const seen = new Set<boolean>();
    // The simulator's `done` is a deterministic function of the request; runs differ by marker, so
    // both branches show up within a few runs (each run's assertions hold for its own branch).
    for (let attempt = 0; attempt < 20 && seen.size < 2; attempt++) {
      const marker = unique(`loops${attempt}`);
      const res = await postSwarm(h, key, {
        swarm_type: "HierarchicalSwarm",
        max_loops: 2,
        agents: [agent("North"), agent("South")],
        task: marker,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [first, review] = await decisions(res.body.job_id);
      expect(review, "a review decision in loop 2").to.be.an("object");
      expect(review.done).to.be.a("boolean");
      seen.add(review.done!);
      const calls = callsMentioning(h, marker);
      const firstOrdered = first.orders.map((o) => o.agent);
      const secondOrdered = review.done ? [] : review.orders.map((o) => o.agent);
      expect(calls).to.have.length(1 + firstOrdered.length + 1 + secondOrdered.length + 1);
      const reviewCall = calls[1 + firstOrdered.length];
      expect(callerOf(reviewCall)).to.equal("Director");
      const schema = reviewCall.tools[0].function.parameters;
      expect(schema.required).to.deep.equal(["plan", "orders", "done"]);
      expect(schema.properties.done.type).to.equal("boolean");
      const output = res.body.output as { role: string; content: string }[];
      expect(output.map((t) => t.role)).to.deep.equal([
        "Director",
        ...firstOrdered,
        "Director",
        ...secondOrdered,
        "Director",
      ]);
      // The review sees the task, the team and loop 1's results.
      expect(inputOf(reviewCall))
        .to.include(marker)
        .and.include("- North: North does its part")
        .and.include(`[loop 1] ${firstOrdered[0]} (order: ${first.orders[0].task}):\n${output[1].content}`);
      const reviewTurn = output[1 + firstOrdered.length].content;
      if (review.done) {
        expect(reviewTurn).to.include("Done:").and.not.include("Orders:");
      } else {
        expect(reviewTurn).to.equal(renderOrders(review));
        const worker = calls[2 + firstOrdered.length];
        expect(inputOf(worker)).to.include(`Your order:\n${review.orders[0].task}`);
        expect(inputOf(calls.at(-1))).to.include(`[loop 2] ${secondOrdered[0]}`);
      }
      expect(res.body.number_of_agents).to.equal(1 + new Set([...firstOrdered, ...secondOrdered]).size);
    }
    expect([...seen].sort()).to.deep.equal([false, true]);
  });

  it("a request agent with role director directs with its own model and gets no worker orders", async () => {
    const marker = unique("role");
    const res = await postSwarm(h, key, {
      swarm_type: "HierarchicalSwarm",
      agents: [
        agent("Alpha"),
        agent("Boss", { role: "director", model_name: "gpt-4o-mini", system_prompt: `Boss prompt ${marker}` }),
        agent("Beta"),
      ],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [decision] = await decisions(res.body.job_id, "Boss");
    expect(decision, "the decision is Boss's").to.be.an("object");
    const ordered = decision.orders.map((o) => o.agent);
    expect(ordered).to.not.include("Boss");
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(1 + ordered.length + 1);
    const bossCalls = calls.filter((c) => callerOf(c) === "Boss");
    expect(bossCalls).to.have.length(2);
    expect(bossCalls.map((c) => c.model)).to.deep.equal(["gpt-4o-mini", "gpt-4o-mini"]);
    expect(calls[0].tools[0].function.parameters.properties.orders.items.properties.agent.enum).to.deep.equal([
      "Alpha",
      "Beta",
    ]);
    expect(calls[0].messages[0].content).to.include(`Boss prompt ${marker}`).and.include("You direct a team");
    expect(res.body.output.map((t: any) => t.role)).to.deep.equal(["Director", ...ordered, "Director"]);
    // Boss is the director, so no separate internal Director made calls.
    expect(res.body.number_of_agents).to.equal(1 + new Set(ordered).size);
    expect(await storedStepCount(h, res.body.job_id, ["Director"])).to.equal(0);
  });

  it("runs ordered workers at the same time and records them in order-list order, not completion order", async () => {
    const marker = unique("parallel");
    const latency = 500;
    const { swarm, steps } = localSwarm(
      [
        agent("Slow", { llm_args: { sim_latency_ms: latency } }),
        agent("Fast", { llm_args: { sim_latency_ms: 50 } }),
        agent("Idle"),
      ],
      marker,
    );
    const decision: DirectorDecision = {
      plan: `plan ${marker}`,
      orders: [
        { agent: "Fast", task: "fast order" },
        { agent: "Slow", task: "slow order" },
      ],
    };
    const contents = await runOrders(swarm, swarm.agents, decision, 0);
    const entries = entriesMentioning(h, marker);
    expect(entries.map((e: any) => callerOf(e.body))).to.have.members(["Fast", "Slow"]);
    const [a, b] = entries.map((e: any) => Date.parse(e.at));
    expect(Math.abs(b - a), "both orders start before either finishes").to.be.below(latency - 100);
    expect(contents[0]).to.include(conversationOf(entries.find((e: any) => callerOf(e.body) === "Fast")!.body));
    expect(contents[1]).to.include(conversationOf(entries.find((e: any) => callerOf(e.body) === "Slow")!.body));
    expect(steps.map((s) => s.lane).sort()).to.deep.equal(["l0/o0", "l0/o1"]);
  });

  it("repairs an invalid order decision once, then fails with DECISION_INVALID naming the director and the problem", async () => {
    const marker = unique("repair");
    const { swarm } = localSwarm([agent("Alpha"), agent("Beta")], marker);
    const who = { name: "Director", model: "gpt-4.1", systemPrompt: `You direct. ${marker}` };
    const tool = ordersTool(["Alpha", "Beta"], false);
    // First answer judged against a team without its worker: invalid, so the repair is asked for.
    let attempt = 0;
    const repaired = await decide<DirectorDecision>(
      swarm,
      who,
      `Task: ${marker}`,
      tool,
      (v) => ordersProblem(attempt++ === 0 ? ["Nobody"] : ["Alpha", "Beta"], false, v),
      "l0/director",
    );
    expect(attempt).to.equal(2);
    expect(["Alpha", "Beta"]).to.include(repaired.orders[0].agent);
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(2);
    expect(calls[1].messages.at(-1).content).to.include("'agent' must be one of Nobody");

    const marker2 = unique("fail");
    const failed: any = await decide(
      localSwarm([agent("Alpha")], marker2).swarm,
      who,
      `Task: ${marker2}`,
      ordersTool(["Alpha"], false),
      (v) => ordersProblem(["Nobody"], false, v),
      "l0/director",
    ).catch((e) => e);
    expect(failed).to.be.instanceOf(DecisionError);
    expect(failed).to.include({ code: "DECISION_INVALID", agent: "Director" });
    expect(failed.message).to.include("give_orders").and.include("'agent' must be one of Nobody");
    expect(callsMentioning(h, marker2)).to.have.length(2);
  });

  it("a retried run replays every step without calling the LLM again", async () => {
    const marker = unique("replay");
    const res = await postSwarm(h, key, {
      swarm_type: "HierarchicalSwarm",
      max_loops: 2,
      agents: [agent("One"), agent("Two")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { stepKeys, recorder, made } = await expectReplayWithoutLlm(h, res, hierarchicalSwarm, marker);
    expect(new Set(stepKeys).size).to.equal(stepKeys.length);
    expect(recorder.replayed).to.equal(made);
  });

  it("answers 400 before any LLM call when the only agent is the director (no workers to order)", async () => {
    const marker = unique("noworkers");
    const res = await postSwarm(h, key, {
      swarm_type: "HierarchicalSwarm",
      agents: [agent("Boss", { role: "director" })],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.detail).to.include(
      "HierarchicalSwarm needs at least one worker besides the agent with role 'director'",
    );
    expect(callsMentioning(h, marker)).to.have.length(0);
  });

  it("the legacy HiearchicalSwarm spelling runs as HierarchicalSwarm", async () => {
    const marker = unique("legacy");
    const res = await postSwarm(h, key, { swarm_type: "HiearchicalSwarm", agents: [agent("Solo")], task: marker });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.swarm_type).to.equal("HierarchicalSwarm");
    expect(res.body.output.map((t: any) => t.role)).to.deep.equal(["Director", "Solo", "Director"]);
  });
});

describe("HierarchicalSwarm orders (unit)", () => {
  const workers = ["Alpha", "Beta"];
  it("accepts valid orders and a done review, and rejects unknown workers, duplicate orders, empty tasks and missing fields", () => {
    expect(
      ordersProblem(workers, false, {
        plan: "p",
        orders: [
          { agent: "Alpha", task: "t" },
          { agent: "Beta", task: "u" },
        ],
      }),
    ).to.equal(null);
    expect(ordersProblem(workers, true, { plan: "p", orders: [], done: true })).to.equal(null);
    expect(ordersProblem(workers, true, { plan: "p", orders: [], done: false })).to.equal(
      "give at least one order, or set done to true",
    );
    expect(ordersProblem(workers, false, { plan: "p", orders: [] })).to.equal("give at least one order");
    expect(ordersProblem(workers, false, { plan: "p", orders: [{ agent: "Zed", task: "t" }] })).to.equal(
      "order 1: 'agent' must be one of Alpha, Beta",
    );
    expect(
      ordersProblem(workers, false, {
        plan: "p",
        orders: [
          { agent: "Alpha", task: "t" },
          { agent: "Alpha", task: "u" },
        ],
      }),
    ).to.include("Alpha has more than one order");
    expect(ordersProblem(workers, false, { plan: " ", orders: [{ agent: "Alpha", task: "" }] })).to.equal(
      "'plan' must be a non-empty string; order 1 needs a non-empty 'task'",
    );
    expect(ordersProblem(workers, true, { plan: "p", orders: [{ agent: "Alpha", task: "t" }] })).to.equal(
      "'done' must be true or false",
    );
    expect(ordersProblem(workers, false, [])).to.include("must be an object");
  });

  it("renders plan and orders, or the end of the work", () => {
    expect(
      renderOrders({
        plan: "Split it",
        orders: [
          { agent: "Alpha", task: "half one" },
          { agent: "Beta", task: "half two" },
        ],
      }),
    ).to.equal("Plan:\nSplit it\n\nOrders:\n- Alpha: half one\n- Beta: half two");
    expect(renderOrders({ plan: "All done", orders: [], done: true })).to.equal(
      "Plan:\nAll done\n\nDone: the results accomplish the task; no further orders.",
    );
  });
});
