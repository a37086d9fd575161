import { config } from "../../shared/config";
import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE } from "../../shared/contracts/agent-defaults";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { agentName } from "../../shared/contracts/agent-tree";
import type { SwarmRequest, SwarmTurn } from "../../shared/contracts/swarm-request";
import { BadRequestError } from "../../shared/errors";
import { outputTokensFor } from "../../shared/llm/model-catalog";
import { hasRole } from "../../shared/swarms/request-checks";
import { swarmTypeRecord } from "../../shared/swarms/swarm-catalog";
import type { SwarmRun } from "./swarm-run";
import { ownPrompt, swarmSystemPrompt } from "./swarm-prompt";

/** The jobs internal agents do (docs/swarm-types.md, "Common rules" and "Output shapes"). */
export type InternalJob =
  | "router"
  | "director"
  | "judge"
  | "chairman"
  | "chair"
  | "planner"
  | "question generator"
  | "builder"
  | "consensus"
  | "synthesis"
  | "selector";

/**
 * The jobs a request agent can take over by its `role`. docs/swarm-types.md names exactly these; any
 * other job (e.g. `consensus`) is always internal, so an agent's role never silently removes it
 * from the workers.
 */
const ROLE_JOBS: ReadonlySet<InternalJob> = new Set<InternalJob>([
  "director",
  "judge",
  "planner",
  "chairman",
  "router",
]);

/** The request agent whose `role` names `job`, when the job is one a request agent can take. */
export function roleAgent(swarm: SwarmRun, job: InternalJob): AgentSpec | undefined {
  if (!ROLE_JOBS.has(job)) return undefined;
  return swarm.agents.find((agent) => hasRole(agent, job));
}

/**
 * The model of an internal agent: the request's type-specific model field (`typeField`, e.g.
 * `heavy_swarm_question_agent_model_name`) when set, else the model of the request agent whose
 * role names the job, else the first agent's model, else, for a type whose built-in agents run on
 * the default model without request agents (its catalog record), `DEFAULT_MODEL`.
 */
export function internalAgentModel(swarm: SwarmRun, job: InternalJob, typeField?: keyof SwarmRequest & string): string {
  const fromField = typeField ? swarm.request[typeField] : undefined;
  if (typeof fromField === "string" && fromField.trim()) return fromField.trim();
  const byRole = roleAgent(swarm, job);
  if (byRole) return byRole.model_name;
  const first = swarm.agents[0]?.model_name;
  if (first) return first;
  if (swarmTypeRecord(swarm.swarmType)?.defaultModelWithoutAgents) return config.llm.defaultModel;
  // Only types with built-in agents run without request agents (the API refuses the rest), and
  // those use the default model or pass a typeField. A 400 fails the run rather than having the job retried.
  throw new BadRequestError(`No model for the internal ${job}: the request has no agents and no model field`);
}

/**
 * A complete agent spec for an internal agent, with the defaults the API gives request agents,
 * so internal calls are built (reasoning settings, output limits) exactly like agent calls. Its
 * output limit is the agents' default, or the model's own limit where that is lower (no client
 * chose it, so it must never be one the provider refuses); the run's budget caps each call further.
 */
export function internalAgentSpec(name: string, model: string, systemPrompt: string, role = "internal"): AgentSpec {
  return {
    agent_name: name,
    description: null,
    system_prompt: systemPrompt,
    model_name: model,
    auto_generate_prompt: false,
    max_tokens: outputTokensFor(model, DEFAULT_MAX_TOKENS),
    temperature: DEFAULT_TEMPERATURE,
    role,
    max_loops: 1,
    streaming_on: false,
    dynamic_temperature_enabled: false,
    tool_call_summary: false,
    reasoning_effort: "low",
    reasoning_enabled: false,
    publish_to_marketplace: false,
    is_free: true,
  };
}

/** An agent ready for a turn or a decision: its name, model, complete system prompt, and the spec its turns run on. */
export interface PromptedAgent {
  name: string;
  model: string;
  systemPrompt: string;
  spec: AgentSpec;
}

/**
 * The internal agent `name` on `model`, doing the job `prompt` describes. Its system prompt holds
 * the job, the swarm's rules and the one-line team note every agent gets (`place`), so logs and
 * tests can tell who made a call.
 */
export function internalAgent(
  swarm: SwarmRun,
  name: string,
  model: string,
  prompt: string,
  place: string,
): PromptedAgent {
  const spec = internalAgentSpec(name, model, prompt);
  const systemPrompt = swarmSystemPrompt(spec, swarm.request, swarm.swarmType, swarm.names, place);
  return { name, model, systemPrompt, spec };
}

/**
 * Who takes an internal job (director, planner, judge, router): the request agent whose role names
 * it, keeping its name, model and own prompt with the job's prompt added, else the internal agent
 * `label` on the internal model. `place` is its team note.
 */
export function jobHolder(
  swarm: SwarmRun,
  job: InternalJob,
  label: string,
  jobPrompt: string,
  place: string,
  typeField?: keyof SwarmRequest & string,
): PromptedAgent {
  const model = internalAgentModel(swarm, job, typeField);
  const acting = roleAgent(swarm, job);
  if (!acting) return internalAgent(swarm, label, model, jobPrompt, place);
  // The type's model field, when set, wins over the acting agent's own model (as for internal agents).
  const spec = { ...acting, model_name: model, system_prompt: `${ownPrompt(acting)}\n\n${jobPrompt}` };
  const systemPrompt = swarmSystemPrompt(spec, swarm.request, swarm.swarmType, swarm.names, place);
  return { name: agentName(acting), model, systemPrompt, spec };
}

/**
 * A turn made in a job (docs/swarm-types.md "Who is credited"): `role` names the job (`Router`,
 * `Director`, …) and `agent` the agent that did it — the request agent acting in the job, or the
 * internal agent, whose name is the job's.
 */
export function jobTurn(job: string, agent: string, content: unknown, extra: Record<string, unknown> = {}): SwarmTurn {
  return { role: job, agent, content, ...extra };
}
