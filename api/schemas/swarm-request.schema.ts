import Joi from "joi";
import { SWARM_TYPE_ALIASES, SWARM_TYPES } from "../../shared/swarms/swarm-catalog";
import { agentSpecSchema } from "./agent-spec.schema";
import { budgetSchema } from "./budget.schema";
import { OMITTED_SWARM_FIELDS } from "../../shared/contracts/swarm-request";
import { swarmMessagesSchema } from "./conversation.schema";
import { swarmTypeFields } from "./swarm-type-fields.schema";
import { imageSchema } from "./image.schema";
import { nonBlankString } from "./text.schema";
import { webhookUrlField } from "./webhook-url.schema";

/**
 * The hosted API's SwarmRequest. Every field is optional and nullable, with the hosted defaults. The
 * rules that need the whole request (agent counts, flows, input) are checked after this, as 400s.
 */
export const swarmRequestSchema = Joi.object({
  ...webhookUrlField,
  name: Joi.string().max(100).allow(null, ""),
  description: Joi.string().max(10_000).allow(null, ""),
  agents: Joi.array().items(agentSpecSchema).max(100).allow(null),
  max_loops: Joi.number().integer().min(1).max(50).allow(null).empty(null).default(1),
  swarm_type: Joi.string()
    .valid(...SWARM_TYPES, ...Object.keys(SWARM_TYPE_ALIASES))
    .allow(null)
    .description(
      [
        "How the agents work together; `SequentialWorkflow` when agents are given without one",
        ...Object.entries(SWARM_TYPE_ALIASES).map(([alias, type]) => `\`${alias}\` is read as \`${type}\``),
      ].join(". "),
    ),
  rearrange_flow: Joi.string()
    .max(10_000)
    .allow(null, "")
    .description("AgentRearrange's flow, e.g. `A -> B, C` (names of the agents)"),
  task: Joi.string().max(1_000_000).allow(null, ""),
  img: imageSchema.allow(null, ""),
  rules: Joi.string().max(100_000).allow(null, "").description("Constraints added to every agent's system prompt"),
  tasks: Joi.array()
    .items(nonBlankString().max(1_000_000))
    .max(1_000)
    .allow(null)
    .description("Without `task`: the swarm runs once per task, in parallel; `output` lists `{task, output}` in order"),
  messages: swarmMessagesSchema
    .allow(null)
    .description("The conversation the swarm starts from; `task`, when given too, follows it"),
  stream: Joi.boolean()
    .allow(null)
    .empty(null)
    .default(OMITTED_SWARM_FIELDS.stream)
    .description("Answer with Server-Sent Events (`text/event-stream`)"),
  heavy_swarm_loops_per_agent: Joi.number()
    .integer()
    .min(1)
    .max(10)
    .allow(null)
    .empty(null)
    .default(OMITTED_SWARM_FIELDS.heavy_swarm_loops_per_agent),
  // No defaults here: unset, these fall back to the agents' model (without agents, the service defaults).
  heavy_swarm_question_agent_model_name: nonBlankString()
    .max(200)
    .allow(null)
    .empty(null)
    .description(
      "HeavySwarm: the question generator's model; unset, the agents' model (without agents `DEFAULT_MODEL`)",
    ),
  heavy_swarm_worker_model_name: nonBlankString()
    .max(200)
    .allow(null)
    .empty(null)
    .description(
      "HeavySwarm: the built-in workers' and the synthesis' model; unset, the agents' model (without agents `DEFAULT_WORKER_MODEL`)",
    ),
  ...swarmTypeFields,
  service_tier: Joi.string()
    .valid("standard", "flex")
    .allow(null)
    .empty(null)
    .default(OMITTED_SWARM_FIELDS.service_tier)
    .description("`flex`: waits behind standard runs, longer timeout, discounted tokens"),
  budget: budgetSchema,
})
  .unknown(true)
  .id("SwarmRequest");
