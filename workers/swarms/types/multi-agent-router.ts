import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { jobHolder, jobTurn, roleAgent } from "../internal-agent";
import { decide, isJsonObject, type DecisionTool } from "../structured-decision";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { teamList } from "../turn-inputs";
import { ProblemList } from "../decision-problems";

/** The router's role name: its turn appears under it (docs/swarm-types.md, "Output shapes"). */
const ROUTER = "Router";
const TOOL_NAME = "route_task";

const ROUTER_JOB =
  "You are the router of a team of agents. Read the task and the team list, decide which agents should work on the task " +
  "(only those whose skills it needs, at least one), and write each chosen agent a self-contained sub-task: it sees only what you write.";

/** One routing order: which agent, and the sub-task written for it. */
interface Route {
  agent: string;
  task: string;
}

/** The router's decision. */
export interface RouteDecision {
  routes: Route[];
  reason: string;
}

/** The routing tool: agent names are an enum of the real workers, at least one route, at most one per worker. */
function routeTool(workers: string[]): DecisionTool {
  return {
    name: TOOL_NAME,
    description:
      "Send the task to the agents who should work on it, each with the sub-task written for it. Name each agent at most once.",
    parameters: {
      type: "object",
      properties: {
        routes: {
          type: "array",
          minItems: 1,
          maxItems: workers.length,
          description: "The chosen agents, in the order their answers should be read",
          items: {
            type: "object",
            properties: {
              agent: { type: "string", enum: workers, description: "The agent's exact name" },
              task: {
                type: "string",
                description: "The sub-task for this agent, self-contained: the agent sees only this text",
              },
            },
            required: ["agent", "task"],
            additionalProperties: false,
          },
        },
        reason: { type: "string", description: "Why these agents" },
      },
      required: ["routes", "reason"],
      additionalProperties: false,
    },
  };
}

/** What is wrong with a routing decision for these workers, or null (the `decide` validator). */
export function routeProblem(workers: string[], value: unknown): string | null {
  if (!isJsonObject(value) || !Array.isArray(value.routes)) return "'routes' must be a list of {agent, task}";
  if (value.routes.length === 0) return `'routes' must name at least one agent (the agents are ${workers.join(", ")})`;
  const problems = new ProblemList();
  const seen = new Set<string>();
  value.routes.forEach((route: unknown, i: number) => {
    if (!isJsonObject(route)) return void problems.add(`route ${i + 1} must be an object {agent, task}`);
    if (typeof route.agent !== "string" || !workers.includes(route.agent))
      problems.add(() => `route ${i + 1}: 'agent' must be one of ${workers.join(", ")}`);
    else if (seen.has(route.agent))
      problems.add(`${route.agent} is named more than once (give each agent one sub-task)`);
    else seen.add(route.agent);
    if (typeof route.task !== "string" || !route.task.trim())
      problems.add(`route ${i + 1}: 'task' must be a non-empty sub-task`);
  });
  if (typeof value.reason !== "string") problems.add("'reason' must be a string");
  return problems.text();
}

/** The Router turn's readable text. */
export function renderRoutes(decision: RouteDecision): string {
  const lines = decision.routes.map((route) => `- ${route.agent}: ${route.task.trim()}`);
  return [
    `Routed to ${decision.routes.map((r) => r.agent).join(", ")}:`,
    ...lines,
    `Reason: ${decision.reason.trim()}`,
  ].join("\n");
}

/**
 * MultiAgentRouter: a router (the agent with role `router`, else internal) chooses through a
 * structured decision which agents get the task and writes each its sub-task; the chosen agents
 * run in parallel on their sub-tasks. Output: the Router turn, then the chosen agents' turns in the
 * order the router listed them. Calls 1+chosen, depth 2 (`max_loops` does not apply).
 */
export const multiAgentRouter: SwarmTypeRunner<"MultiAgentRouter"> = {
  name: "MultiAgentRouter",
  async run(swarm) {
    const acting = roleAgent(swarm, "router");
    const workers: { agent: AgentSpec; index: number; name: string }[] = swarm.agents
      .map((agent, index) => ({ agent, index, name: swarm.names[index] }))
      .filter(({ agent }) => agent !== acting);
    const names = workers.map((w) => w.name);
    const team = teamList(
      workers.map((w) => w.agent),
      "(no description)",
    );
    const input = [
      `Task:\n${swarm.opening}`,
      `Agents (name: description):\n${team}`,
      `Route the task with ${TOOL_NAME}.`,
    ].join("\n\n");
    const tool = routeTool(names);
    const router = jobHolder(swarm, "router", ROUTER, ROUTER_JOB, `routing the task to ${names.join(", ")}`);
    const decision = await decide<RouteDecision>(
      swarm,
      router,
      input,
      tool,
      (value) => routeProblem(names, value),
      "router",
    );
    swarm.conversation.add(jobTurn(ROUTER, router.name, renderRoutes(decision)));

    const byName = new Map(workers.map((w) => [w.name, w]));
    const answers = await swarm.parallel(decision.routes, (route) => {
      const { agent, index } = byName.get(route.agent)!;
      return swarm.turn(agent, route.task, { lane: `a${index}`, place: `given a sub-task by the ${ROUTER}` });
    });
    answers.forEach((content, i) => swarm.conversation.add({ role: decision.routes[i].agent, content }));
    return swarm.conversation.turns;
  },
};
