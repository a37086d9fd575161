import type { SwarmRequest } from "../contracts/swarm-request";
import { BadRequestError } from "../errors";
import { messageList } from "./opening";
import { swarmAgentNames } from "./request-checks";
import { swarmTypeRecord, type AgentCountRule } from "./swarm-catalog";

/** What is wrong with the number of agents under `rule`, or null. */
function agentCountProblem(type: string, rule: AgentCountRule, n: number): string | null {
  if ("exactly" in rule)
    return n === rule.exactly
      ? null
      : `${type} needs exactly ${rule.exactly} agents, in order ${rule.inOrder.join(", ")} (got ${n})`;
  return n < rule.min ? `${type} needs at least ${rule.min} agent${rule.min === 1 ? "" : "s"} (got ${n})` : null;
}

/**
 * Whether the swarm has something to work on. What the worker opens the run with (openingText): a
 * blank task, or `messages` that hold no message (`{}`, `{messages: []}`), give the agents nothing.
 */
export function hasSwarmInput(request: SwarmRequest): boolean {
  return Boolean(request.task?.trim()) || Boolean(request.tasks?.length) || messageList(request.messages).length > 0;
}

/**
 * The rules that need the whole request (docs/api.md, "Request and answer shapes": 400 with a readable `detail`), checked
 * before any LLM call: something to work on, a type the service offers, its agent count, unique
 * agent names, and the type's own checks (its catalog record). Returns the problems found; empty
 * when the request can run.
 */
export function swarmRuleProblems(request: SwarmRequest): string[] {
  const problems: string[] = [];
  const type = request.swarm_type;
  const record = swarmTypeRecord(type);
  if (!hasSwarmInput(request))
    problems.push("Give the swarm something to do: one of task, tasks or messages is required");
  if (!record?.available)
    problems.push(`swarm_type '${type}' is not available yet on this service (see GET /v1/swarms/available)`);
  const countProblem = record && agentCountProblem(type, record.agents, request.agents?.length ?? 0);
  if (countProblem) problems.push(countProblem);
  const names = swarmAgentNames(request);
  const duplicates = names.filter((name, i) => names.indexOf(name) !== i);
  if (duplicates.length)
    problems.push(`Agent names must be unique within a swarm: ${[...new Set(duplicates)].join(", ")}`);
  for (const check of record?.checks ?? []) {
    const problem = check({ type, request, names });
    if (problem) problems.push(problem);
  }
  return problems;
}

/**
 * Refuses a request the rules refuse: the API's 400 `INVALID_SWARM` before anything is stored, and
 * the worker's backstop for a run that bypassed the API (a 400 fails the run instead of retrying it).
 */
export function assertSwarmRules(request: SwarmRequest): void {
  const problems = swarmRuleProblems(request);
  if (problems.length) throw new BadRequestError(problems.join("; "), {}, "INVALID_SWARM");
}
