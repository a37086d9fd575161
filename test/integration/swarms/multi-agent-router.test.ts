import { expect } from "chai";
import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import { swarmRunners } from "../../../workers/swarms/registry";
import { DecisionError } from "../../../workers/swarms/structured-decision";
import {
  multiAgentRouter,
  renderRoutes,
  routeProblem,
  type RouteDecision,
} from "../../../workers/swarms/types/multi-agent-router";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { cannedCall, inProcessSwarm, type CannedDecisions } from "../../helpers/swarm-fixture";
import {
  agent,
  callerOf,
  callsMentioning,
  conversationOf,
  inputOf,
  postSwarm,
  uniqueMarker,
} from "../../helpers/swarm";

function inProcess(
  request: Omit<Partial<SwarmRequest>, "agents"> & { agents: Record<string, unknown>[] },
  canned?: CannedDecisions,
) {
  return inProcessSwarm("MultiAgentRouter", request, canned);
}

describe("MultiAgentRouter (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("is registered and listed", () => {
    expect(swarmRunners.MultiAgentRouter).to.equal(multiAgentRouter);
  });

  it("a Router decision (forced tool, enum of the workers) sends sub-tasks; the chosen agents run on them, in the router's order", async () => {
    const marker = uniqueMarker("mar");
    const names = ["Alpha", "Beta", "Gamma"].map((n) => `${n}-${marker}`);
    const res = await postSwarm(h, key, {
      name: "Routed",
      swarm_type: "MultiAgentRouter",
      agents: [
        agent(names[0], { model_name: "gpt-4o-mini" }),
        agent(names[1]),
        agent(names[2], { description: `Gamma knows ${marker}-lore` }),
      ],
      task: `${marker} task`,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: "success", swarm_type: "MultiAgentRouter", swarm_name: "Routed" });

    const calls = callsMentioning(h, marker);
    const [routerCall, ...workerCalls] = calls;
    expect(callerOf(routerCall)).to.equal("Router");
    expect(routerCall.model, "internal router uses the first agent's model").to.equal("gpt-4o-mini");
    expect(routerCall.tool_choice).to.deep.equal({ type: "function", function: { name: "route_task" } });
    const schema = routerCall.tools[0].function.parameters.properties.routes;
    expect(schema.minItems).to.equal(1);
    expect(schema.items.properties.agent.enum).to.deep.equal(names);
    // The router sees the task and every agent's name and description.
    const routerInput = inputOf(routerCall);
    expect(routerInput).to.include(`${marker} task`);
    expect(routerInput)
      .to.include(`- ${names[0]}: ${names[0]} does its part`)
      .and.include(`- ${names[2]}: Gamma knows ${marker}-lore`);

    const [step] = await h.deps.ds.query("SELECT output FROM run_steps WHERE run_id = $1 AND step_key = 'router#0'", [
      res.body.job_id,
    ]);
    const decision = JSON.parse(step.output.tool_calls[0].function.arguments) as RouteDecision;
    const chosen = decision.routes.map((r) => r.agent);
    expect(chosen.length).to.be.at.least(1);

    // 1 + chosen calls; each chosen agent's input is exactly its sub-task.
    expect(workerCalls).to.have.length(chosen.length);
    expect(workerCalls.map(callerOf).sort()).to.deep.equal([...chosen].sort());
    const output = res.body.output as { role: string; content: string }[];
    expect(output.map((t) => t.role)).to.deep.equal(["Router", ...chosen]);
    expect(output[0].content).to.equal(renderRoutes(decision));
    decision.routes.forEach((route, i) => {
      const call = workerCalls.find((c) => callerOf(c) === route.agent)!;
      expect(inputOf(call)).to.equal(route.task);
      expect(call.tools).to.equal(undefined);
      expect(output[i + 1].content).to.include(conversationOf(call));
    });
    expect(res.body.number_of_agents).to.equal(1 + chosen.length);
  });

  it("an agent with role router routes instead of working: its model and name make the decision, the turn is still Router", async () => {
    const marker = uniqueMarker("mar-role");
    const res = await postSwarm(h, key, {
      swarm_type: "MultiAgentRouter",
      agents: [
        agent(`Worker-${marker}`),
        agent(`Dispatch-${marker}`, { role: "router", model_name: "gpt-4o-mini" }),
        agent(`Other-${marker}`),
      ],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    expect(callerOf(calls[0])).to.equal(`Dispatch-${marker}`);
    expect(calls[0].model).to.equal("gpt-4o-mini");
    expect(calls[0].messages[0].content).to.include(`You are Dispatch-${marker}.`);
    expect(calls[0].tools[0].function.parameters.properties.routes.items.properties.agent.enum).to.deep.equal([
      `Worker-${marker}`,
      `Other-${marker}`,
    ]);
    expect(inputOf(calls[0])).to.not.include(`- Dispatch-${marker}:`);
    expect(res.body.output[0].role).to.equal("Router");
    expect(calls.slice(1).map(callerOf)).to.not.include(`Dispatch-${marker}`);
    expect(res.body.number_of_agents).to.equal(calls.length);
  });

  it("400 before any call when the only agent is the router", async () => {
    const marker = uniqueMarker("mar-alone");
    const res = await postSwarm(h, key, {
      swarm_type: "MultiAgentRouter",
      agents: [agent("Solo", { role: "router" })],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.detail).to.include("besides the agent with role 'router'");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });

  it("an invalid decision is repaired once with the problem shown; a second invalid one fails with DECISION_INVALID naming the Router", async () => {
    const marker = uniqueMarker("mar-repair");
    const agents = [agent(`One-${marker}`), agent(`Two-${marker}`)];
    const dup = {
      routes: [
        { agent: `One-${marker}`, task: "a" },
        { agent: `One-${marker}`, task: "b" },
      ],
      reason: "r",
    };
    const first = inProcess({ agents, task: marker }, (lane, attempt) =>
      lane === "router" && attempt === 0 ? cannedCall("route_task", dup) : undefined,
    );
    const output = (await multiAgentRouter.run(first.swarm)) as { role: string }[];
    const repair = callsMentioning(h, marker).find((c) => callerOf(c) === "Router")!;
    expect(repair.messages.map((m: any) => m.role)).to.deep.equal(["system", "user", "assistant", "tool"]);
    expect(repair.messages[3].content).to.include(`One-${marker} is named more than once`);
    expect(first.steps.filter((s) => s.lane === "router")).to.have.length(2);
    expect(output[0].role).to.equal("Router");
    expect(output.length).to.be.above(1);

    const marker2 = uniqueMarker("mar-fail");
    const unknown = { routes: [{ agent: "Nobody", task: "a" }], reason: "r" };
    const second = inProcess({ agents: [agent(`One-${marker2}`), agent(`Two-${marker2}`)], task: marker2 }, (lane) =>
      lane === "router" ? cannedCall("route_task", unknown) : undefined,
    );
    const err = await multiAgentRouter.run(second.swarm).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(DecisionError);
    expect(err).to.include({ code: "DECISION_INVALID", agent: "Router" });
    expect((err as Error).message).to.include("route 1: 'agent' must be one of");
    expect(second.steps.map((s) => s.lane)).to.deep.equal(["router", "router"]);
    expect(callsMentioning(h, marker2), "no worker ran").to.have.length(0);
  });
});

describe("MultiAgentRouter decisions (unit)", () => {
  const workers = ["A", "B"];
  it("accepts distinct known agents with sub-tasks and rejects empty, unknown, duplicate and task-less routes", () => {
    expect(
      routeProblem(workers, {
        routes: [
          { agent: "B", task: "x" },
          { agent: "A", task: "y" },
        ],
        reason: "",
      }),
    ).to.equal(null);
    expect(routeProblem(workers, { routes: [], reason: "" })).to.include("at least one agent");
    expect(routeProblem(workers, { routes: [{ agent: "C", task: "x" }], reason: "" })).to.include(
      "'agent' must be one of A, B",
    );
    expect(
      routeProblem(workers, {
        routes: [
          { agent: "A", task: "x" },
          { agent: "A", task: "y" },
        ],
        reason: "",
      }),
    ).to.include("A is named more than once");
    expect(routeProblem(workers, { routes: [{ agent: "A", task: " " }], reason: "" })).to.include(
      "'task' must be a non-empty sub-task",
    );
    expect(routeProblem(workers, { reason: "" })).to.include("'routes' must be a list");
  });
});
