import Joi from "joi";
import { HEAVY_SWARM_VARIANTS, OMITTED_SWARM_FIELDS } from "../../shared/contracts/swarm-request";
import { llmArgsSchema } from "./llm-args.schema";
import { nonBlankString } from "./text.schema";

/** A model named by a type-specific field: unset means the agents' model (docs/swarm-types.md "Internal agents"). */
const modelField = (what: string) => nonBlankString().max(200).allow(null).empty(null).description(what);

/**
 * `director_settings`: the provider options `llm_args` takes (same checks, same reserved fields),
 * plus `max_tokens`, the director's output limit, which `llm_args` may not set.
 */
const directorSettingsSchema = llmArgsSchema
  .keys({ max_tokens: Joi.number().integer().min(1).max(1_000_000).allow(null) })
  .description(
    "HierarchicalSwarm: the director's settings: `temperature` and `max_tokens` replace its own, other keys (`top_p`, …) are added to its `llm_args`",
  );

/**
 * The hosted API's fields that shape how the agents of a swarm work together (hosted docs,
 * multi-agent overview). Each applies to the types docs/swarm-types.md names for it; on another
 * type it is accepted and has no effect, as clients of the hosted API send them with every type.
 */
export const swarmTypeFields = {
  multi_agent_collab_prompt: Joi.boolean()
    .allow(null)
    .empty(null)
    .default(OMITTED_SWARM_FIELDS.multi_agent_collab_prompt)
    .description("Add the collaboration prompt to every agent's system prompt (`false`: leave it out)"),
  list_all_agents: Joi.boolean()
    .allow(null)
    .empty(null)
    .default(OMITTED_SWARM_FIELDS.list_all_agents)
    .description("List every agent of the team, with its description, in each agent's system prompt"),
  heavy_swarm_max_loops: Joi.number()
    .integer()
    .min(1)
    .max(10)
    .allow(null)
    .empty(null)
    .default(OMITTED_SWARM_FIELDS.heavy_swarm_max_loops)
    .description("HeavySwarm: rounds of questions, answers and report; each round refines the previous report"),
  heavy_swarm_variant: Joi.string()
    .valid(...HEAVY_SWARM_VARIANTS)
    .allow(null)
    .empty(null)
    .default(OMITTED_SWARM_FIELDS.heavy_swarm_variant)
    .description("HeavySwarm without agents: its built-in team (`default` 4 workers, `medium` 3, `heavy` 15)"),
  council_judge_model_name: modelField("CouncilAsAJudge: the model of the Chair that delivers the final ruling"),
  chairman_model: modelField("LLMCouncil: the model of the chairman that writes the final answer"),
  director_model_name: modelField("HierarchicalSwarm: the model of the director"),
  director_settings: directorSettingsSchema,
};
