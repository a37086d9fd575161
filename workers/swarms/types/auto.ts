import { RunAbortedError } from "../../../shared/llm/run-aborted";
import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import type { SwarmTypeName } from "../../../shared/swarms/swarm-catalog";
import { swarmRuleProblems } from "../../../shared/swarms/swarm-rules";
import { BudgetExceededError } from "../../agents/call-allowance";
import { internalAgent, internalAgentModel, jobTurn } from "../internal-agent";
import { decide, isJsonObject, type DecisionTool } from "../structured-decision";
import type { RunnerOf, SwarmTypeRunner } from "../swarm-type-runner";
import { teamList } from "../turn-inputs";
import { concreteTypes, runChosenType, typeOptions } from "./chosen-type";

/** The selector's role name: its turn appears under it (docs/swarm-types.md, "Output shapes"). */
const SELECTOR = "Selector";
const TOOL_NAME = "choose_swarm_type";
/** What runs when the selector cannot make a valid choice. */
const FALLBACK_TYPE: SwarmTypeName = "SequentialWorkflow";

/**
 * The concrete types this service can run for `request` as it stands, in catalog order: those a
 * choice may be (see `concreteTypes`) that pass the request rules (agent count, DebateWithJudge's
 * 3 agents, AgentRearrange's flow, BatchedGridWorkflow's `tasks`).
 */
export function possibleTypes(request: SwarmRequest): SwarmTypeName[] {
  return concreteTypes(request).filter((type) => swarmRuleProblems({ ...request, swarm_type: type }).length === 0);
}

/** The selector's decision. */
export interface TypeChoice {
  swarm_type: string;
  reason: string;
}

/** The choosing tool: `swarm_type` is an enum of the possible types only. */
function chooseTool(types: SwarmTypeName[]): DecisionTool {
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
function choiceProblem(types: string[], value: unknown): string | null {
  if (!isJsonObject(value)) return "the arguments must be an object {swarm_type, reason}";
  const choice = value as Partial<TypeChoice>;
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
 * `swarm_type` is the chosen type. Calls 1+that type's (2 when the choice is repaired). `runnerOf`
 * gives the chosen type's runner.
 */
export function autoRunner(runnerOf: RunnerOf): SwarmTypeRunner<"auto"> {
  return {
    name: "auto",
    async run(swarm) {
      const types = possibleTypes(swarm.request);
      const selector = internalAgent(
        swarm,
        SELECTOR,
        internalAgentModel(swarm, "selector"),
        "You choose how a team of agents works together on a task: pick the swarm type that fits the task and the team best.",
        `choosing the swarm type for ${swarm.names.join(", ")}`,
      );
      const input = [
        `Task:\n${swarm.opening}`,
        `Agents (name: description):\n${teamList(swarm.agents, "(no description)")}`,
        `Swarm types you can choose:\n${typeOptions(types)}`,
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
      swarm.conversation.add(jobTurn(SELECTOR, SELECTOR, text, { swarm_type: chosen }));
      swarm.ranType = chosen;
      const derived = swarm.derive(chosen, { swarmType: chosen, request: { swarm_type: chosen } });
      return runChosenType(swarm, runnerOf(chosen), derived);
    },
  };
}
