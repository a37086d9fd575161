import Joi from "joi";
import { agentSpecSchema } from "./agent-spec.schema";
import { listingFields } from "./listing-fields.schema";
import { promptFields } from "./prompt-fields.schema";

const requirement = Joi.object({
  package: Joi.string().trim().min(1).max(200).required(),
  installation: Joi.string().allow("").max(2_000).required(),
});

/**
 * An agent listing's fields with their own rules, without presence (creation makes some required, editing none): the
 * prompt listing's fields, with `agent` (the agent's definition as text: its system prompt or code) in place of
 * `prompt`, plus the agent's own. Tokenization is not offered here: `POST /api/token/launch` lists a tokenized agent.
 */
const agentListingFields = {
  ...listingFields,
  agent: promptFields.prompt.description(
    "The agent's definition as text (its system prompt, or its code): 5–100,000 characters",
  ),
  tokenized_on: Joi.boolean()
    .valid(false)
    .messages({ "any.only": "{{#label}} is not offered here: `POST /api/token/launch` lists an agent with its token" }),
  language: Joi.string().trim().allow("", null).max(50).description("The agent's programming language, e.g. `python`"),
  requirements: Joi.array()
    .items(requirement)
    .max(50)
    .description("Packages the agent needs: `{package, installation}`"),
  agent_config: agentSpecSchema
    .allow(null)
    .description(
      "The agent as the agent API takes it (`POST /v1/agent/completions`'s `agent_config`: model, system prompt, tools…)",
    ),
};

/** `POST /api/add-agent` body (docs/marketplace-agents.md lists its fields); a price when not free is checked after. */
export const addAgentSchema = Joi.object({
  ...agentListingFields,
  name: agentListingFields.name.required(),
  agent: agentListingFields.agent.required(),
  description: agentListingFields.description.required(),
  useCases: agentListingFields.useCases.required(),
  tags: agentListingFields.tags.required(),
  is_free: agentListingFields.is_free.default(true),
  links: agentListingFields.links.default([]),
  requirements: agentListingFields.requirements.default([]),
});

/** `POST /api/edit-agent` body: only `id` is required; any field given is held to agent creation's rule for it. */
export const editAgentSchema = Joi.object({
  id: Joi.string().trim().guid().required(),
  ...agentListingFields,
});
