import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { internalAgent } from "../internal-agent";
import { decide, isJsonObject, withMaxTokens, type DecisionTool } from "../structured-decision";
import type { SwarmRun } from "../swarm-run";
import { BUILDER } from "./design-swarm";
import { generatedAgentSpec, type GeneratedAgentSettings } from "./swarm-spec";

const TOOL_NAME = "generate_agent";
/** The bounds `POST /v1/agent/completions` puts on these fields (api/schemas/agent-spec.schema.ts). */
const MAX_NAME = 200;
const MAX_DESCRIPTION = 10_000;
const MAX_PROMPT = 200_000;

const generateTool: DecisionTool = {
  name: TOOL_NAME,
  description:
    "Write the one agent that will do the task: a short unique name, a one-sentence description, and a system prompt (role, expertise, output format, constraints). The service validates it.",
  parameters: {
    type: "object",
    properties: {
      agent_name: { type: "string", description: `A short name for the agent (at most ${MAX_NAME} characters)` },
      description: { type: "string", description: "One sentence on what the agent does" },
      system_prompt: {
        type: "string",
        description: "The agent's system prompt: its role, expertise, output format and constraints",
      },
      temperature: {
        type: "number",
        minimum: 0,
        maximum: 1,
        description: "The sampling temperature that suits the task",
      },
    },
    required: ["agent_name", "description", "system_prompt"],
    additionalProperties: false,
  },
};

/** What is wrong with one text field of the decision, or null. */
function textProblem(value: Record<string, unknown>, field: string, max: number, required: boolean): string | null {
  const text = value[field];
  if (typeof text !== "string") return `'${field}' must be a string`;
  if (required && !text.trim()) return `'${field}' must not be empty`;
  return text.length > max ? `'${field}' must be at most ${max} characters (got ${text.length})` : null;
}

/** What is wrong with a generated agent, or null (the `decide` validator): every field as `POST /v1/agent/completions` accepts it. */
export function agentProblem(value: unknown): string | null {
  if (!isJsonObject(value)) return "the arguments must be an object {agent_name, description, system_prompt}";
  const problems = [
    textProblem(value, "agent_name", MAX_NAME, true),
    textProblem(value, "description", MAX_DESCRIPTION, false),
    textProblem(value, "system_prompt", MAX_PROMPT, true),
  ];
  const t = value.temperature;
  if (t !== undefined && t !== null && (typeof t !== "number" || !(t >= 0 && t <= 1)))
    problems.push("'temperature' must be a number from 0 to 1");
  const found = problems.filter((p): p is string => p !== null);
  return found.length ? found.join("; ") : null;
}

/**
 * The Builder's design of one agent for `swarm`'s opening (`POST /v1/agents/auto-generate`): one
 * structured decision, checked by `agentProblem` and repaired once like a swarm design (see
 * `decide`), made into a complete agent spec on the request's model with the API's defaults.
 */
export async function designAgent(swarm: SwarmRun, settings: GeneratedAgentSettings): Promise<AgentSpec> {
  const builder = internalAgent(
    swarm,
    BUILDER,
    settings.model,
    "You design AI agents: given a task, you write the one agent that does it best — its name, what it does, and a system prompt that states its role, expertise, output format and constraints.",
    "designing the agent that will do the task",
  );
  const input = `Task:\n${swarm.opening}\n\nWrite the agent with ${TOOL_NAME}.`;
  const decision = await decide<Record<string, unknown>>(
    swarm,
    withMaxTokens(builder, settings.maxTokens),
    input,
    generateTool,
    agentProblem,
    "builder",
  );
  const agent = generatedAgentSpec(
    {
      agent_name: String(decision.agent_name).trim(),
      description: String(decision.description).trim(),
      system_prompt: String(decision.system_prompt).trim(),
    },
    settings,
  );
  return typeof decision.temperature === "number" ? { ...agent, temperature: decision.temperature } : agent;
}
