import { config } from "../../shared/config";
import type { KeyOwner } from "../../shared/auth/api-keys";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { swarmAgentNames } from "../../shared/swarms/request-checks";
import { SWARM_TYPE_ALIASES } from "../../shared/swarms/swarm-catalog";
import { ValidationError } from "../../shared/errors";
import { assertSwarmRules, hasSwarmInput } from "../../shared/swarms/swarm-rules";
import { effectiveBudget } from "./run-budget";
import { assertSwarmModelsServable } from "./run-models";

/**
 * A validated SwarmRequest made ready to store: the legacy type spelling mapped, the default type
 * (SequentialWorkflow when agents are given), every agent named (`Agent <n>` when nameless, since
 * turns are attributed by name), and the budget filled in for the caller's tier.
 */
export function normaliseSwarmRequest(body: SwarmRequest, owner: KeyOwner): SwarmRequest {
  const type = body.swarm_type ? (SWARM_TYPE_ALIASES[body.swarm_type] ?? body.swarm_type) : "SequentialWorkflow";
  const names = swarmAgentNames(body);
  const agents = (body.agents ?? []).map((agent, i) => ({ ...agent, agent_name: names[i] }));
  const models = type === "HeavySwarm" && !agents.length ? builtInHeavySwarmModels(body) : {};
  return { ...body, ...models, swarm_type: type, agents, budget: effectiveBudget(body.budget, owner.tier) };
}

/**
 * HeavySwarm's model fields when it runs its built-in team (no request agents): the service
 * defaults for the fields left unset. With agents, an unset field stays unset so its internal
 * agents fall back to the agents' model instead of a default of another provider.
 */
function builtInHeavySwarmModels(body: SwarmRequest): Partial<SwarmRequest> {
  return {
    heavy_swarm_question_agent_model_name: body.heavy_swarm_question_agent_model_name ?? config.llm.defaultModel,
    heavy_swarm_worker_model_name: body.heavy_swarm_worker_model_name ?? config.llm.defaultWorkerModel,
  };
}

/**
 * A swarm without a task, `tasks` or `messages`: the 422 a missing `task` is on every `/v1`
 * completion endpoint (docs/errors.md), at `body.task`.
 */
const MISSING_SWARM_INPUT = {
  loc: ["body", "task"],
  msg: "'task' is required (or 'tasks' or 'messages'): the swarm has nothing to work on",
  type: "any.required",
};

/**
 * Something to work on (else the 422 of a missing task), the rules that need the whole request
 * (its type's catalog record) and every model servable: 400 before any LLM call.
 */
export function assertSwarmRunnable(request: SwarmRequest): void {
  if (!hasSwarmInput(request)) throw new ValidationError([MISSING_SWARM_INPUT]);
  assertSwarmRules(request);
  assertSwarmModelsServable(request);
}
