import Joi from "joi";
import { nonBlankString } from "./text.schema";

/** Most messages in `history` or `messages`, either form. */
const MAX_MESSAGES = 1_000;

/** A message's content: text that is not blank, or structured content the agents read as JSON. */
const content = Joi.alternatives(
  nonBlankString(),
  Joi.array(),
  Joi.object().unknown(true),
  Joi.number(),
  Joi.boolean(),
).allow(null);

/** An agent completion's or agent batch item's `history`: one earlier message. */
const historyMessage = Joi.object({ role: Joi.string().required(), content: content.required() }).unknown(true);

/** A swarm completion's or swarm batch item's `messages`: one message of the conversation the swarm starts from. */
const swarmMessage = Joi.object({
  role: Joi.string().max(100),
  name: Joi.string().max(200),
  content: content.required(),
}).unknown(true);

/**
 * A conversation as clients send it: a list of messages, or an object that holds one under
 * `messages` or is free-form context. The list under `messages` is checked like the list form:
 * the worker reads it the same way, and a `null` in it would crash the run instead of refusing it.
 * `objectKeys` checks what else the worker reads from the object form.
 */
function conversation(message: Joi.ObjectSchema, objectKeys: Joi.PartialSchemaMap = {}): Joi.AlternativesSchema {
  const list = Joi.array().items(message).max(MAX_MESSAGES);
  return Joi.alternatives(list, Joi.object({ messages: list, ...objectKeys }).unknown(true));
}

export const historySchema = conversation(historyMessage);
/** A swarm's `messages` object with `content` (and no `messages` list) is read as one message. */
export const swarmMessagesSchema = conversation(swarmMessage, { content });
