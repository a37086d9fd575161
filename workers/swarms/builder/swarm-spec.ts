import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE } from "../../../shared/contracts/agent-defaults";
import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { outputTokensFor } from "../../../shared/llm/model-catalog";
import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import type { SwarmTypeName } from "../../../shared/swarms/swarm-catalog";
import { isJsonObject, type DecisionTool } from "../structured-decision";

export const BUILD_TOOL = "build_swarm";
const MIN_BUILT_AGENTS = 2;
const MAX_BUILT_AGENTS = 8;

/** A swarm spec read from a decision: agents as a list, in the order the builder wrote them. */
export interface SwarmSpec {
  name: string;
  /** What the swarm is for, in the builder's words ("" when it wrote none). */
  description: string;
  swarm_type: SwarmTypeName;
  rearrange_flow: string | null;
  /** Rules for every agent of the swarm, as the reference's SwarmRouterConfig has them. */
  rules: string | null;
  agents: { agent_name: string; description: string; system_prompt: string }[];
}

/**
 * The spec-writing tool. Agents are keyed by their names, so names are unique by construction
 * (the same approach as MajorityVoting's ballots); the service checks the rest with the request rules.
 */
export function buildTool(types: SwarmTypeName[]): DecisionTool {
  return {
    name: BUILD_TOOL,
    description:
      `Write the swarm that will do the task: its name, its type, and ${MIN_BUILT_AGENTS} to ${MAX_BUILT_AGENTS} agents keyed by their unique names, ` +
      "each with a description and a system prompt. The service validates the spec and runs it.",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", description: "A short name for the swarm" },
        description: { type: "string", description: "One or two sentences on what the swarm does" },
        swarm_type: { type: "string", enum: types, description: "How the agents work together" },
        rearrange_flow: {
          type: "string",
          description:
            "Only for AgentRearrange (required then): the order of the agents by their exact names, '->' between steps and ',' between agents of one step, e.g. 'Researcher -> Writer, Critic -> Editor'",
        },
        rules: { type: "string", description: "Optional rules every agent of the swarm must follow" },
        agents: {
          type: "object",
          description: `The agents, ${MIN_BUILT_AGENTS} to ${MAX_BUILT_AGENTS}, keyed by agent_name (unique names, in the order they should work)`,
          minProperties: MIN_BUILT_AGENTS,
          maxProperties: MAX_BUILT_AGENTS,
          additionalProperties: {
            type: "object",
            properties: {
              description: { type: "string", description: "What this agent does in the swarm" },
              system_prompt: { type: "string", description: "The agent's system prompt" },
            },
            required: ["description", "system_prompt"],
            additionalProperties: false,
          },
        },
      },
      required: ["name", "swarm_type", "agents"],
      additionalProperties: false,
    },
  };
}

/** What is wrong with an optional string field, or null. */
function optionalText(value: Record<string, unknown>, field: string): string | null {
  const v = value[field];
  return v === undefined || v === null || typeof v === "string" ? null : `'${field}' must be a string`;
}

/** The problems of the agents' part of a decision (only the count when there are too many to read). */
function agentProblems(agents: [string, unknown][]): string[] {
  if (agents.length < MIN_BUILT_AGENTS || agents.length > MAX_BUILT_AGENTS)
    return [`the swarm needs ${MIN_BUILT_AGENTS} to ${MAX_BUILT_AGENTS} agents (got ${agents.length})`];
  const problems: string[] = [];
  const names = agents.map(([name]) => name.trim());
  if (names.some((name) => !name)) problems.push("every agent needs a non-empty name");
  const twice = names.filter((name, i) => name && names.indexOf(name) !== i);
  if (twice.length) problems.push(`agent names must be unique: ${[...new Set(twice)].join(", ")}`);
  for (const [name, agent] of agents) {
    if (
      !isJsonObject(agent) ||
      typeof agent.description !== "string" ||
      typeof agent.system_prompt !== "string" ||
      !agent.system_prompt.trim()
    ) {
      problems.push(`agent '${name}' needs a description and a non-empty system_prompt`);
    }
  }
  return problems;
}

const trimmedOrNull = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);

/** Reads a decision into a spec, or says what is wrong with its shape. */
export function readSpec(types: SwarmTypeName[], value: unknown): { spec?: SwarmSpec; problem?: string } {
  if (!isJsonObject(value)) return { problem: "the arguments must be an object {name, swarm_type, agents}" };
  const problems: string[] = [];
  if (typeof value.swarm_type !== "string" || !types.includes(value.swarm_type as SwarmTypeName))
    problems.push(`'swarm_type' must be one of ${types.join(", ")}`);
  for (const field of ["name", "description", "rearrange_flow", "rules"]) {
    const problem = optionalText(value, field);
    if (problem) problems.push(problem);
  }
  const agents = isJsonObject(value.agents) ? Object.entries(value.agents) : null;
  if (!agents)
    problems.push(
      `'agents' must be an object of ${MIN_BUILT_AGENTS} to ${MAX_BUILT_AGENTS} agents keyed by agent_name`,
    );
  else problems.push(...agentProblems(agents));
  if (problems.length) return { problem: problems.join("; ") };
  const type = value.swarm_type as SwarmTypeName;
  return {
    spec: {
      name: typeof value.name === "string" ? value.name.trim() : "",
      description: typeof value.description === "string" ? value.description.trim() : "",
      swarm_type: type,
      // A flow only means something to AgentRearrange; any other type ignores it.
      rearrange_flow: type === "AgentRearrange" ? String(value.rearrange_flow ?? "").trim() : null,
      rules: trimmedOrNull(value.rules),
      agents: agents!.map(([name, agent]) => ({
        agent_name: name.trim(),
        description: String((agent as Record<string, unknown>).description).trim(),
        system_prompt: String((agent as Record<string, unknown>).system_prompt).trim(),
      })),
    },
  };
}

/** What a generated agent's spec takes from the request besides the builder's words. */
export interface GeneratedAgentSettings {
  model: string;
  /** The agents' output limit (when the request sets none: the API's default, 8192, or the model's limit where lower). */
  maxTokens?: number;
  /** The client's provider options, which reach the agents generated for it as they reach internal agents. */
  llmArgs?: Record<string, unknown> | null;
}

/**
 * A full agent spec for a generated agent, with the defaults the API's schema gives request
 * agents (api/schemas/agent-spec.schema.ts). A request agent of the same name is a hint: its
 * settings (model, limits, tools) are kept and the builder's description and prompt replace its own.
 */
export function generatedAgentSpec(
  built: SwarmSpec["agents"][number],
  settings: GeneratedAgentSettings,
  hint?: AgentSpec,
): AgentSpec {
  if (hint)
    return {
      ...hint,
      agent_name: built.agent_name,
      description: built.description,
      system_prompt: built.system_prompt,
      marketplace_prompt_id: null,
    };
  return {
    ...(settings.llmArgs ? { llm_args: settings.llmArgs } : {}),
    agent_name: built.agent_name,
    description: built.description,
    system_prompt: built.system_prompt,
    model_name: settings.model,
    auto_generate_prompt: false,
    max_tokens: settings.maxTokens ?? outputTokensFor(settings.model, DEFAULT_MAX_TOKENS),
    temperature: DEFAULT_TEMPERATURE,
    role: "worker",
    max_loops: 1,
    streaming_on: false,
    dynamic_temperature_enabled: true,
    tool_call_summary: true,
    reasoning_effort: "low",
    reasoning_enabled: false,
    publish_to_marketplace: false,
    is_free: true,
  };
}

/**
 * The request the generated swarm runs as: the original with the spec's name, type, agents and
 * flow; the client's description and rules stay, the builder's are added to them.
 */
export function builtRequest(request: SwarmRequest, spec: SwarmSpec, agents: AgentSpec[]): SwarmRequest {
  const join = (a?: string | null, b?: string | null) => [a, b].filter((text) => text?.trim()).join("\n") || null;
  return {
    ...request,
    name: spec.name || request.name,
    description: request.description || spec.description || null,
    rules: join(request.rules, spec.rules),
    swarm_type: spec.swarm_type,
    agents,
    rearrange_flow: spec.rearrange_flow,
  };
}

/** The Builder turn's readable text: the type, the description when written, each agent, the flow and rules. */
export function renderSpec(spec: SwarmSpec): string {
  const lines = [`Swarm '${spec.name}' (${spec.swarm_type}) with ${spec.agents.length} agents:`];
  if (spec.description) lines.splice(1, 0, `Description: ${spec.description}`);
  for (const agent of spec.agents)
    lines.push(`- ${agent.agent_name}: ${agent.description}`, `  System prompt: ${agent.system_prompt}`);
  if (spec.rearrange_flow) lines.push(`Flow: ${spec.rearrange_flow}`);
  if (spec.rules) lines.push(`Rules: ${spec.rules}`);
  return lines.join("\n");
}
