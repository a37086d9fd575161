import Joi from "joi";
import { config } from "../../shared/config";
import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE } from "../../shared/contracts/agent-defaults";
import { agentName } from "../../shared/contracts/agent-tree";
import { MAX_GATED_TOOLS } from "../../shared/approvals/approval-gates";
import { functionNameSchema, functionToolsSchema } from "./function-tool.schema";
import { headersSchema, headerValueSchema } from "./http-header.schema";
import { isPlainObject } from "./plain-object";
import { llmArgsSchema } from "./llm-args.schema";
import { nonBlankString } from "./text.schema";

/** The hosted API's McpConfig. `timeout` is in seconds. */
const mcpConfigSchema = Joi.object({
  type: Joi.string().default("mcp"),
  url: Joi.string()
    .uri({ scheme: ["http", "https"] })
    .required(),
  tool_configurations: Joi.object().unknown(true).allow(null),
  authorization_token: headerValueSchema.allow(null, ""),
  transport: Joi.string().valid("streamable_http", "sse", "http").default("streamable_http"),
  headers: headersSchema.allow(null),
  timeout: Joi.number().positive().max(600).default(10),
}).unknown(true);

const stringList = Joi.array().items(Joi.string().max(200)).max(100).allow(null);

/**
 * The hosted API's AgentSpec, with its defaults. Bounds it leaves open are the usual provider
 * ranges. Unknown fields are ignored, as the hosted API ignores them.
 */
export const agentSpecSchema = Joi.object({
  agent_name: Joi.string().max(200).allow(null, ""),
  description: Joi.string().max(10_000).allow(null, ""),
  system_prompt: Joi.string().max(200_000).allow(null, ""),
  marketplace_prompt_id: Joi.string()
    .trim()
    .max(100)
    .allow(null, "")
    .description("A stored prompt; takes precedence over `system_prompt`"),
  model_name: nonBlankString().max(200).default(config.llm.defaultModel),
  auto_generate_prompt: Joi.boolean().default(false),
  max_tokens: Joi.number().integer().min(1).max(1_000_000).default(DEFAULT_MAX_TOKENS),
  temperature: Joi.number()
    .min(0)
    .max(2)
    .allow(null)
    .empty(null)
    .default(DEFAULT_TEMPERATURE)
    .description("0–2; null or unset: 0.5, the hosted default (never left to the provider's own)"),
  // `internal` marks the service's own agents (router, consensus, …), billed and set up apart from request agents.
  role: Joi.string()
    .max(100)
    .default("worker")
    .custom((value: string, helpers) =>
      value.trim().toLowerCase() === "internal" ? helpers.error("role.internal") : value,
    )
    .messages({ "role.internal": "{{#label}} 'internal' is the role of the service's own agents; give another" }),
  max_loops: Joi.number().integer().min(1).max(100).default(1),
  tools_list_dictionary: functionToolsSchema,
  selected_tools: Joi.string().max(10_000).allow(null, ""),
  mcp_url: Joi.string()
    .uri({ scheme: ["http", "https"] })
    .allow(null, ""),
  streaming_on: Joi.boolean().default(false),
  llm_args: llmArgsSchema,
  dynamic_temperature_enabled: Joi.boolean().default(true),
  mcp_config: mcpConfigSchema.allow(null),
  mcp_configs: Joi.object({ connections: Joi.array().items(mcpConfigSchema).max(20).required() })
    .unknown(true)
    .allow(null),
  tool_call_summary: Joi.boolean().default(true),
  reasoning_effort: Joi.string().valid("minimal", "low", "medium", "high").default("low"),
  thinking_tokens: Joi.number().integer().min(0).max(1_000_000).allow(null),
  reasoning_enabled: Joi.boolean().default(false),
  publish_to_marketplace: Joi.boolean().default(false),
  use_cases: Joi.array().items(Joi.object().unknown(true)).max(100).allow(null),
  tags: stringList,
  capabilities: stringList,
  category: Joi.string().max(100).allow(null, ""),
  is_free: Joi.boolean().default(true),
  price_usd: Joi.number().min(0).allow(null),
  // Handoffs are agents in their own right (validated the same way, recursively).
  // The model names a handoff by its name: a second one of the same name could never be reached.
  handoffs: Joi.array()
    .items(Joi.link("#AgentSpec"))
    .max(20)
    .unique((a, b) => isPlainObject(a) && isPlainObject(b) && agentName(a) === agentName(b))
    .messages({
      "array.unique":
        "{{#label}} has the name of an earlier handoff (unnamed ones are all 'Agent'): the model could never hand it a task",
    })
    .allow(null)
    .description("Agents this one may hand the task to, each under its own name"),
  requires_approval: Joi.array()
    .items(functionNameSchema)
    .max(MAX_GATED_TOOLS)
    .unique()
    .allow(null)
    .description(
      "Tools (MCP, built-in or `handoff_to_agent`) whose calls park the run in `awaiting_approval` until `POST /v1/jobs/{job_id}/approve` or `/reject`",
    ),
  // Recorded by the service when it publishes the agent; a client's value would be a false record.
  published_prompt_id: Joi.any().strip(),
})
  .unknown(true)
  .id("AgentSpec");
