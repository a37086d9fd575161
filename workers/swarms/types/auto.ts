import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import { RunAbortedError } from "../../../shared/llm/run-aborted";
import { SWARM_TYPES, swarmRuleProblems, type SwarmTypeName } from "../../../shared/swarms/swarm-catalog";
import { BudgetExceededError } from "../../agents/run-budget";
import { internalAgentModel, internalSystemPrompt } from "../internal-agent";
import { registeredSwarmTypes } from "../type-lookup";
import { decide, type DecisionTool } from "../structured-decision";
import type { SwarmType } from "../swarm-type";

/** The selector's role name: its turn appears under it (SWARM-TYPES.md "Output shapes"). */
export const SELECTOR = "Selector";
const TOOL_NAME = "choose_swarm_type";
/** What runs when the selector cannot make a valid choice. */
export const FALLBACK_TYPE: SwarmTypeName = "SequentialWorkflow";

/** Types that choose or build another swarm: never a choice themselves. */
const META_TYPES: ReadonlySet<SwarmTypeName> = new Set<SwarmTypeName>(["auto", "AutoSwarmBuilder"]);

/** One line per type, so a selector or builder knows what it is choosing between (SWARM-TYPES.md). */
export const TYPE_SUMMARIES: Partial<Record<SwarmTypeName, string>> = {
  SequentialWorkflow: "agents in order, each building on the transcript so far",
  AgentRearrange: "agents in the order of a flow ('A -> B, C -> D': steps in order, agents of a step in parallel)",
  ConcurrentWorkflow: "all agents answer the task independently in parallel",
  MixtureOfAgents: "the first agents answer in parallel as experts, the last one aggregates their answers",
  GroupChat: "agents discuss in rounds, each seeing the whole discussion",
  MultiAgentRouter: "a router picks the agents the task needs and gives each a sub-task; they work in parallel",
  HierarchicalSwarm: "a director plans, gives workers orders, reviews their results and synthesises",
  MajorityVoting: "all agents answer in parallel and a consensus agent tallies the answers",
  CouncilAsAJudge: "agents judge the material in parallel along their own dimensions; a chair merges the reports",
  HeavySwarm: "a question generator gives each worker a focused question; a synthesis agent writes the report",
  BatchedGridWorkflow: "every agent on every task of the request's task list",
  LLMCouncil: "members answer, rank each other's anonymised answers, and a chairman writes the final answer",
  DebateWithJudge: "three agents: Pro argues for, Con against, a Judge evaluates and decides",
  RoundRobin: "agents speak in turn over rounds, each told who spoke before and who speaks next",
  PlannerWorkerSwarm:
    "a planner splits the goal into tasks with dependencies, workers do them, a judge checks the goal",
};

/** The registered swarm types, read when a run starts. */
export function registeredTypes(): ReturnType<typeof registeredSwarmTypes> {
  return registeredSwarmTypes();
}

/** Whether the handler runs the request once per entry of `tasks` (each run sees one task). */
export function runsPerTask(request: SwarmRequest): boolean {
  return !request.task?.trim() && Boolean(request.tasks?.length);
}

/**
 * The concrete types this service can run for `request` as it stands, in catalog order: registered,
 * not a meta type, and passing the request rules (agent minimum, DebateWithJudge's 3 agents,
 * AgentRearrange's flow, BatchedGridWorkflow's `tasks`). BatchedGridWorkflow is left out when
 * the request is already run once per task (the grid would be run again inside every task).
 */
export function possibleTypes(request: SwarmRequest): SwarmTypeName[] {
  const registry = registeredTypes();
  return SWARM_TYPES.filter(
    (type) =>
      !META_TYPES.has(type) &&
      Boolean(registry[type]) &&
      !(type === "BatchedGridWorkflow" && runsPerTask(request)) &&
      swarmRuleProblems({ ...request, swarm_type: type }).length === 0,
  );
}

/** The selector's decision. */
export interface TypeChoice {
  swarm_type: string;
  reason: string;
}

/** The choosing tool: `swarm_type` is an enum of the possible types only. */
export function chooseTool(types: SwarmTypeName[]): DecisionTool {
  return {
    name: TOOL_NAME,
    description: "Choose the swarm type that fits the task and the team best.",
    parameters: {
      type: "object",
      properties: {
        swarm_type: { type: "string", enum: types, description: "The swarm type to run" },
        reason: { type: "string", description: "Why this type fits the task and the team" },
      },
      required: ["swarm_type", "reason"],
      additionalProperties: false,
    },
  };
}

/** What is wrong with a choice among `types`, or null (the `decide` validator). */
export function choiceProblem(types: string[], value: unknown): string | null {
  const choice = value as Partial<TypeChoice> | null;
  if (typeof choice !== "object" || choice === null || Array.isArray(choice))
    return "the arguments must be an object {swarm_type, reason}";
  const problems: string[] = [];
  if (typeof choice.swarm_type !== "string" || !types.includes(choice.swarm_type))
    problems.push(`'swarm_type' must be one of ${types.join(", ")}`);
  if (typeof choice.reason !== "string") problems.push("'reason' must be a string");
  return problems.length ? problems.join("; ") : null;
}

/** Errors that end the run whatever type would run next: they are not a failed choice. */
function endsTheRun(err: unknown): boolean {
  return err instanceof BudgetExceededError || err instanceof RunAbortedError;
}

/**
 * `auto`: an internal Selector chooses, through a structured decision whose enum holds only the
 * types possible for this request, the concrete type that fits; that type then runs as a run
 * derived from this one (same opening, budget and usage; its steps under `<type>/`, so a replay can
 * never mix a choice with another type's steps). When the choice fails, SequentialWorkflow runs.
 * Output: the Selector turn (which type and why), then the chosen type's turns; the response's
 * `swarm_type` is the chosen type. Calls 1+that type's (2 when the choice is repaired).
 */
export const auto: SwarmType = {
  name: "auto",
  async run(swarm) {
    const types = possibleTypes(swarm.request);
    const selector = {
      name: SELECTOR,
      model: internalAgentModel(swarm, "selector"),
      systemPrompt: internalSystemPrompt(
        swarm,
        SELECTOR,
        "You choose how a team of agents works together on a task: pick the swarm type that fits the task and the team best.",
        `choosing the swarm type for ${swarm.names.join(", ")}`,
      ),
    };
    const team = swarm.agents.map(
      (agent, i) => `- ${swarm.names[i]}: ${agent.description?.trim() || "(no description)"}`,
    );
    const options = types.map((type) => `- ${type}: ${TYPE_SUMMARIES[type] ?? ""}`);
    const input = [
      `Task:\n${swarm.opening}`,
      `Agents (name: description):\n${team.join("\n")}`,
      `Swarm types you can choose:\n${options.join("\n")}`,
      `Choose with ${TOOL_NAME}.`,
    ].join("\n\n");

    let chosen: SwarmTypeName;
    let text: string;
    try {
      const choice = await decide<TypeChoice>(
        swarm,
        selector,
        input,
        chooseTool(types),
        (value) => choiceProblem(types, value),
        "selector",
      );
      chosen = choice.swarm_type as SwarmTypeName;
      text = `Chose ${chosen}: ${choice.reason.trim()}`;
    } catch (err) {
      if (endsTheRun(err)) throw err;
      chosen = FALLBACK_TYPE;
      text = `Could not choose a swarm type (${(err as Error).message}); running ${FALLBACK_TYPE}.`;
    }
    swarm.conversation.add({ role: SELECTOR, content: text, swarm_type: chosen });
    swarm.ranType = chosen;
    const output = await registeredTypes()[chosen]!.run(
      swarm.derive(chosen, { swarmType: chosen, request: { swarm_type: chosen } }),
    );
    return [...swarm.conversation.turns, ...(Array.isArray(output) ? output : [output])];
  },
};
