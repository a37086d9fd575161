import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { agentBrief } from "../../../shared/contracts/agent-tree";
import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import type { SwarmTypeName } from "../../../shared/swarms/swarm-catalog";
import { swarmRuleProblems } from "../../../shared/swarms/swarm-rules";
import { agentName } from "../../agents/handoffs";
import { internalAgent, internalAgentModel, jobTurn } from "../internal-agent";
import { decide, isJsonObject, type DecisionTool } from "../structured-decision";
import type { RunnerOf, SwarmTypeRunner } from "../swarm-type-runner";
import { concreteTypes, runChosenType, typeOptions } from "./chosen-type";

/** The builder's role name: its turn appears under it (SWARM-TYPES.md "Output shapes"). */
const BUILDER = "Builder";
const TOOL_NAME = "build_swarm";
const MIN_BUILT_AGENTS = 2;
const MAX_BUILT_AGENTS = 8;

/** One generated agent as the builder writes it (keyed by its name in the decision). */
interface BuiltAgent {
  description: string;
  system_prompt: string;
}

/** The builder's decision as the model writes it. */
interface BuildDecision {
  name: string;
  swarm_type: string;
  rearrange_flow?: string;
  agents: Record<string, BuiltAgent>;
}

/** A swarm spec read from a decision: agents as a list, in the order the builder wrote them. */
export interface SwarmSpec {
  name: string;
  swarm_type: SwarmTypeName;
  rearrange_flow: string | null;
  agents: { agent_name: string; description: string; system_prompt: string }[];
}

/**
 * The spec-writing tool. Agents are keyed by their names, so names are unique by construction
 * (the same approach as MajorityVoting's ballots); the service checks the rest with the request rules.
 */
function buildTool(types: SwarmTypeName[]): DecisionTool {
  return {
    name: TOOL_NAME,
    description:
      `Write the swarm that will do the task: its name, its type, and ${MIN_BUILT_AGENTS} to ${MAX_BUILT_AGENTS} agents keyed by their unique names, ` +
      "each with a description and a system prompt. The service validates the spec and runs it.",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", description: "A short name for the swarm" },
        swarm_type: { type: "string", enum: types, description: "How the agents work together" },
        rearrange_flow: {
          type: "string",
          description:
            "Only for AgentRearrange (required then): the order of the agents by their exact names, '->' between steps and ',' between agents of one step, e.g. 'Researcher -> Writer, Critic -> Editor'",
        },
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

/** Reads a decision into a spec, or says what is wrong with its shape. */
export function readSpec(types: SwarmTypeName[], value: unknown): { spec?: SwarmSpec; problem?: string } {
  if (!isJsonObject(value)) return { problem: "the arguments must be an object {name, swarm_type, agents}" };
  const problems: string[] = [];
  if (typeof value.swarm_type !== "string" || !types.includes(value.swarm_type as SwarmTypeName))
    problems.push(`'swarm_type' must be one of ${types.join(", ")}`);
  if (value.name !== undefined && typeof value.name !== "string") problems.push("'name' must be a string");
  if (value.rearrange_flow !== undefined && value.rearrange_flow !== null && typeof value.rearrange_flow !== "string")
    problems.push("'rearrange_flow' must be a string");
  const agents = isJsonObject(value.agents) ? Object.entries(value.agents) : null;
  if (!agents)
    problems.push(
      `'agents' must be an object of ${MIN_BUILT_AGENTS} to ${MAX_BUILT_AGENTS} agents keyed by agent_name`,
    );
  else {
    if (agents.length < MIN_BUILT_AGENTS || agents.length > MAX_BUILT_AGENTS)
      problems.push(`the swarm needs ${MIN_BUILT_AGENTS} to ${MAX_BUILT_AGENTS} agents (got ${agents.length})`);
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
  }
  if (problems.length) return { problem: problems.join("; ") };
  const type = value.swarm_type as SwarmTypeName;
  return {
    spec: {
      name: typeof value.name === "string" ? value.name.trim() : "",
      swarm_type: type,
      // A flow only means something to AgentRearrange; any other type ignores it.
      rearrange_flow: type === "AgentRearrange" ? String(value.rearrange_flow ?? "").trim() : null,
      agents: agents!.map(([name, agent]) => ({
        agent_name: name.trim(),
        description: String((agent as Record<string, unknown>).description).trim(),
        system_prompt: String((agent as Record<string, unknown>).system_prompt).trim(),
      })),
    },
  };
}

/**
 * A full agent spec for a generated agent, with the defaults the API's schema gives request
 * agents (api/schemas/agent-spec.schema.ts). A request agent of the same name is a hint: its
 * settings (model, limits, tools) are kept and the builder's description and prompt replace its own.
 */
export function generatedAgentSpec(
  built: SwarmSpec["agents"][number],
  model: string,
  hint?: AgentSpec,
  llmArgs?: Record<string, unknown> | null,
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
    // The client's provider options reach the agents generated for it, as they reach internal agents.
    ...(llmArgs ? { llm_args: llmArgs } : {}),
    agent_name: built.agent_name,
    description: built.description,
    system_prompt: built.system_prompt,
    model_name: model,
    auto_generate_prompt: false,
    max_tokens: 8192,
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

/** The request the generated swarm runs as: the original with the spec's name, type, agents and flow. */
function builtRequest(request: SwarmRequest, spec: SwarmSpec, agents: AgentSpec[]): SwarmRequest {
  return {
    ...request,
    name: spec.name || request.name,
    swarm_type: spec.swarm_type,
    agents,
    rearrange_flow: spec.rearrange_flow,
  };
}

/** The Builder turn's readable text. */
export function renderSpec(spec: SwarmSpec): string {
  const lines = [`Swarm '${spec.name}' (${spec.swarm_type}) with ${spec.agents.length} agents:`];
  for (const agent of spec.agents)
    lines.push(`- ${agent.agent_name}: ${agent.description}`, `  System prompt: ${agent.system_prompt}`);
  if (spec.rearrange_flow) lines.push(`Flow: ${spec.rearrange_flow}`);
  return lines.join("\n");
}

/**
 * AutoSwarmBuilder: an internal Builder writes a swarm spec through a structured decision (name,
 * concrete type, flow when AgentRearrange, 2–8 agents with names, descriptions and system
 * prompts); the request rules validate it (the repair attempt is shown the problems); then the
 * generated swarm runs as a run derived from this one (its steps under `swarm/`). Request agents
 * are hints in the builder's input. Output: the Builder turn, then the generated swarm's turns.
 * Calls 1+that swarm's (2+ when the spec is repaired). `runnerOf` gives the generated type's runner.
 */
export function autoSwarmBuilderRunner(runnerOf: RunnerOf): SwarmTypeRunner<"AutoSwarmBuilder"> {
  return {
    name: "AutoSwarmBuilder",
    async run(swarm) {
      const model = internalAgentModel(swarm, "builder");
      const types = concreteTypes(swarm.request);
      const hints = new Map(swarm.agents.map((agent) => [agentName(agent), agent]));
      const builder = internalAgent(
        swarm,
        BUILDER,
        model,
        "You design swarms of AI agents: given a task, you choose how agents should work together and write each agent's role and system prompt.",
        "designing the swarm that will do the task",
      );
      const parts = [`Task:\n${swarm.opening}`];
      if (swarm.agents.length) {
        const listed = swarm.agents.map(
          (agent, i) => `- ${swarm.names[i]}: ${agentBrief(agent) ?? "(no description)"}`,
        );
        parts.push(
          `Agents suggested by the request (hints: use, adapt or replace them; an agent you keep under the same name keeps its model and settings):\n${listed.join("\n")}`,
        );
      }
      parts.push(`Swarm types you can choose:\n${typeOptions(types)}`);
      parts.push(`Write the swarm with ${TOOL_NAME}.`);

      const agentsOf = (spec: SwarmSpec) =>
        spec.agents.map((built) =>
          generatedAgentSpec(built, model, hints.get(built.agent_name), swarm.internalLlmArgs),
        );
      const validate = (value: unknown): string | null => {
        const { spec, problem } = readSpec(types, value);
        if (!spec) return problem!;
        const problems = swarmRuleProblems(builtRequest(swarm.request, spec, agentsOf(spec)));
        return problems.length ? problems.join("; ") : null;
      };
      const decision = await decide<BuildDecision>(
        swarm,
        builder,
        parts.join("\n\n"),
        buildTool(types),
        validate,
        "builder",
      );
      const spec = readSpec(types, decision).spec!;
      const agents = agentsOf(spec);
      swarm.conversation.add(jobTurn(BUILDER, BUILDER, renderSpec(spec), { spec }));

      const built = swarm.derive("swarm", {
        swarmType: spec.swarm_type,
        agents,
        request: builtRequest(swarm.request, spec, agents),
      });
      return runChosenType(swarm, runnerOf(spec.swarm_type), built);
    },
  };
}
