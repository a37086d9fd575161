import Joi from "joi";
import { config } from "../../shared/config";
import { REASONING_OUTPUT_TYPES } from "../../shared/contracts/reasoning-request";
import { REASONING_CATALOG, REASONING_TYPE_NAMES } from "../../shared/reasoning/reasoning-catalog";
import { budgetSchema } from "./budget.schema";
import { llmArgsSchema } from "./llm-args.schema";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/** A bounded count with a type-chosen default: every extra sample or loop is another paid LLM call. */
function count(max: number, what: string): Joi.NumberSchema {
  return Joi.number().integer().min(1).max(max).allow(null).description(what);
}

const aliasNote = Object.entries(REASONING_CATALOG)
  .flatMap(([type, record]) => record.aliases.map((alias) => `\`${alias}\` runs \`${type}\``))
  .join(", ");

/**
 * The hosted API's ReasoningAgentSpec. Counts are bounded so one request cannot buy unbounded
 * calls; `task` is required (there is nothing to reason about without it).
 */
export const reasoningRequestSchema = Joi.object({
  ...webhookUrlField,
  agent_name: Joi.string().max(200).allow(null, "").description("Names the run's agents (default `reasoning-agent`)"),
  description: Joi.string().max(10_000).allow(null, "").description("The agent's purpose, told to every call"),
  model_name: nonBlankString()
    .max(200)
    .allow(null)
    .empty(null)
    .default(config.llm.defaultModel)
    .description("The model of every call of the run"),
  system_prompt: Joi.string()
    .max(200_000)
    .allow(null, "")
    .description("Replaces the default prompt of the agent that answers (docs/reasoning-agents.md)"),
  max_loops: count(10, "Rounds (reasoning-duo, ReflexionAgent, AgentJudge, ire) or loops per sample (self-consistency)")
    .empty(null)
    .default(1),
  swarm_type: Joi.string()
    .valid(...REASONING_TYPE_NAMES)
    .allow(null)
    .empty(null)
    .default("reasoning-duo")
    .description(`The reasoning type; ${aliasNote}`),
  num_samples: count(16, "self-consistency's parallel samples (default 3); ire's solution paths (default 3)"),
  memory_capacity: count(50, "ReflexionAgent: how many past reflections it keeps (default 6)"),
  num_knowledge_items: count(16, "GKPAgent: knowledge statements generated and answered from (default 6)"),
  output_type: Joi.string()
    .valid(...REASONING_OUTPUT_TYPES)
    .allow(null)
    .empty(null)
    .default("dict-all-except-first")
    .description("How `output` shows the run's turns (docs/reasoning-agents.md)"),
  task: nonBlankString().max(1_000_000).required().description("What to reason about (for AgentJudge, what to judge)"),
  llm_args: llmArgsSchema.description("Apiary's addition: provider options for every call of the run"),
  stream: Joi.boolean()
    .allow(null)
    .empty(null)
    .default(false)
    .description("Apiary's addition: answer with Server-Sent Events, in the swarm's frames"),
  budget: budgetSchema,
})
  .unknown(true)
  .id("ReasoningAgentRequest");
