import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { agentName } from "../../agents/handoffs";
import { contentText } from "../../../shared/swarms/opening";
import { jobHolder, jobTurn, roleAgent } from "../internal-agent";
import { withDirectorSettings } from "./director-settings";
import { decide, isJsonObject, type DecisionTool } from "../structured-decision";
import type { SwarmRun } from "../swarm-run";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { teamList } from "../turn-inputs";
import { ProblemList } from "../decision-problems";

/** The director's role name: its turns appear under it (docs/swarm-types.md, "Output shapes"). */
const DIRECTOR = "Director";
const TOOL_NAME = "give_orders";

const DIRECTOR_JOB =
  "You direct a team of agents. Break the task into a plan, give each worker you need one clear order, " +
  "review what they deliver, and finally write the answer to the task from their results.";

/** One order: a worker (by exact name) and what it must do. */
interface Order {
  agent: string;
  task: string;
}

/** The director's decision: a plan and orders; after the first loop, whether the work is done. */
export interface DirectorDecision {
  plan: string;
  orders: Order[];
  done?: boolean;
}

/** A worker's result, as the director reads it in later loops and in the synthesis. */
interface OrderResult {
  loop: number;
  agent: string;
  task: string;
  content: unknown;
}

/**
 * The order-giving tool. Worker names are an enum of the real workers; `done` exists only for
 * reviews (loops after the first), where the director may end the work instead of ordering more.
 */
export function ordersTool(workers: string[], review: boolean): DecisionTool {
  const properties: Record<string, unknown> = {
    plan: { type: "string", description: "The plan: how the team will accomplish the task" },
    orders: {
      type: "array",
      minItems: review ? 0 : 1,
      description: review
        ? "The next orders, at most one per worker (ignored when done is true)"
        : "The orders, at most one per worker",
      items: {
        type: "object",
        properties: {
          agent: { type: "string", enum: workers, description: "The worker's exact name" },
          task: { type: "string", description: "What this worker must do, self-contained" },
        },
        required: ["agent", "task"],
        additionalProperties: false,
      },
    },
  };
  const required = ["plan", "orders"];
  if (review) {
    properties.done = {
      type: "boolean",
      description: "true when the results already accomplish the task and no further orders are needed",
    };
    required.push("done");
  }
  return {
    name: TOOL_NAME,
    description: review
      ? "Review the results: update the plan and give the next orders, or set done to true when the work is complete."
      : "Write the plan and give the workers their orders.",
    parameters: { type: "object", properties, required, additionalProperties: false },
  };
}

/** What is wrong with a director decision for these workers, or null (the `decide` validator). */
export function ordersProblem(workers: string[], review: boolean, value: unknown): string | null {
  if (!isJsonObject(value)) return "the arguments must be an object with 'plan' and 'orders'";
  const problems = new ProblemList();
  if (typeof value.plan !== "string" || !value.plan.trim()) problems.add("'plan' must be a non-empty string");
  if (review && typeof value.done !== "boolean") problems.add("'done' must be true or false");
  const done = review && value.done === true;
  if (!Array.isArray(value.orders)) problems.add("'orders' must be a list");
  else if (!done) {
    if (!value.orders.length)
      problems.add(review ? "give at least one order, or set done to true" : "give at least one order");
    const seen = new Set<string>();
    value.orders.forEach((order, i) => {
      if (!isJsonObject(order)) return void problems.add(`order ${i + 1} must be an object with 'agent' and 'task'`);
      if (typeof order.agent !== "string" || !workers.includes(order.agent))
        problems.add(() => `order ${i + 1}: 'agent' must be one of ${workers.join(", ")}`);
      else if (seen.has(order.agent))
        problems.add(`${order.agent} has more than one order (give each worker at most one, combining its tasks)`);
      else seen.add(order.agent);
      if (typeof order.task !== "string" || !order.task.trim()) problems.add(`order ${i + 1} needs a non-empty 'task'`);
    });
  }
  return problems.text();
}

/** The Director turn's readable text. */
export function renderOrders(decision: DirectorDecision): string {
  const plan = `Plan:\n${decision.plan.trim()}`;
  if (decision.done) return `${plan}\n\nDone: the results accomplish the task; no further orders.`;
  return `${plan}\n\nOrders:\n${decision.orders.map((o) => `- ${o.agent}: ${o.task.trim()}`).join("\n")}`;
}

/** Runs the orders in parallel; results in order-list order, whatever order they finish in. */
export async function runOrders(
  swarm: SwarmRun,
  workers: AgentSpec[],
  decision: DirectorDecision,
  loop: number,
): Promise<unknown[]> {
  const byName = new Map(workers.map((w) => [agentName(w), w]));
  return swarm.parallel(decision.orders, (order, i) => {
    const input = [
      `Task:\n${swarm.opening}`,
      `The ${DIRECTOR}'s plan:\n${decision.plan.trim()}`,
      `Your order:\n${order.task.trim()}`,
    ].join("\n\n");
    return swarm.turn(byName.get(order.agent)!, input, {
      lane: `l${loop}/o${i}`,
      place: `a worker of the ${DIRECTOR}'s team, carrying out its order`,
    });
  });
}

function resultList(results: OrderResult[]): string {
  return results
    .map((r) => `[loop ${r.loop + 1}] ${r.agent} (order: ${r.task.trim()}):\n${contentText(r.content)}`)
    .join("\n\n");
}

/**
 * HierarchicalSwarm (docs/swarm-types.md): a Director — the request agent with role `director`, which
 * then gives no worker turns, else an internal agent — writes a plan and orders through a
 * structured decision; the ordered workers run in parallel, each seeing the task, the plan and its
 * order. For L>1 the Director reviews all results so far and orders again or declares the work done.
 * The Director ends with a synthesis turn. Calls per loop 1+orders, +1; depth 2·L+1.
 */
export const hierarchicalSwarm: SwarmTypeRunner<"HierarchicalSwarm"> = {
  name: "HierarchicalSwarm",
  async run(swarm) {
    const acting = roleAgent(swarm, "director");
    const workers = swarm.agents.filter((a) => a !== acting);
    const workerNames = workers.map(agentName);
    // The agent that directs: a request agent keeps its name, prompt and settings; the job is added.
    // `director_model_name` and `director_settings` tune it, whoever holds the job.
    const director = withDirectorSettings(
      swarm,
      jobHolder(
        swarm,
        "director",
        DIRECTOR,
        DIRECTOR_JOB,
        `directing ${workerNames.join(", ")}`,
        "director_model_name",
      ),
    );
    const team = `Team:\n${teamList(workers)}`;

    const results: OrderResult[] = [];
    for (let loop = 0; loop < swarm.loops; loop++) {
      const review = loop > 0;
      const tool = ordersTool(workerNames, review);
      const input = review
        ? [
            `Task:\n${swarm.opening}`,
            team,
            `Results so far:\n${resultList(results)}`,
            `Review the results and call ${TOOL_NAME}: give the next orders, or set done to true if the task is accomplished.`,
          ]
        : [`Task:\n${swarm.opening}`, team, `Write a plan and give the workers their orders with ${TOOL_NAME}.`];
      const decision = await decide<DirectorDecision>(
        swarm,
        director,
        input.join("\n\n"),
        tool,
        (value) => ordersProblem(workerNames, review, value),
        `l${loop}/director`,
      );
      const done = review && decision.done === true;
      const shown: DirectorDecision = done ? { plan: decision.plan, orders: [], done: true } : decision;
      swarm.conversation.add(jobTurn(DIRECTOR, director.name, renderOrders(shown)));
      if (done) break;

      const contents = await runOrders(swarm, workers, decision, loop);
      decision.orders.forEach((order, i) => {
        swarm.conversation.add({ role: order.agent, content: contents[i] });
        results.push({ loop, agent: order.agent, task: order.task, content: contents[i] });
      });
    }

    const synthesisInput = [
      `Task:\n${swarm.opening}`,
      team,
      `Results:\n${resultList(results)}`,
      "Write the final answer to the task, synthesising the workers' results.",
    ].join("\n\n");
    const synthesis = await swarm.turn(director.spec, synthesisInput, {
      lane: "synthesis",
      systemPrompt: director.systemPrompt,
      label: DIRECTOR,
    });
    swarm.conversation.add(jobTurn(DIRECTOR, director.name, synthesis));
    return swarm.conversation.turns;
  },
};
