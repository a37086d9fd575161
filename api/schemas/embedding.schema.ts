import Joi from "joi";
import { nonBlankString } from "./text.schema";

/** OpenAI's bounds on one embeddings request: inputs, tokens per input, tokens in all. */
const MAX_EMBEDDING_INPUTS = 2_048;
export const MAX_EMBEDDING_INPUT_TOKENS = 8_192;
export const MAX_EMBEDDING_REQUEST_TOKENS = 300_000;
/** Token ids are below the size of the largest vocabulary of OpenAI's encodings (o200k_base's). */
const VOCABULARY_SIZE = 200_019;
/**
 * Most characters of one text input, checked before its tokens are counted: far above what 8,192
 * tokens spell, so only a text that could never fit is refused unread.
 */
const MAX_INPUT_CHARS = MAX_EMBEDDING_INPUT_TOKENS * 256;

const text = Joi.string().min(1).max(MAX_INPUT_CHARS);
const tokenId = Joi.number()
  .integer()
  .min(0)
  .max(VOCABULARY_SIZE - 1);
const tokenList = Joi.array().items(tokenId).min(1).max(MAX_EMBEDDING_INPUT_TOKENS);

/**
 * `input` in OpenAI's four shapes, told apart by what the value holds so a refusal names the
 * item at fault: a text, a list of texts, a list of token ids, a list of lists of token ids.
 */
const input = Joi.alternatives()
  .conditional(Joi.string().allow(""), { then: text })
  .conditional(Joi.array().items(Joi.number()), { then: tokenList })
  .conditional(Joi.array().items(Joi.array()), { then: Joi.array().items(tokenList).max(MAX_EMBEDDING_INPUTS) })
  .conditional(Joi.array().items(Joi.string().allow("")), {
    then: Joi.array().items(text).max(MAX_EMBEDDING_INPUTS),
    otherwise: Joi.any().forbidden().messages({
      "any.unknown":
        "{{#label}} must be a string, a list of strings, a list of token ids or a list of lists of token ids",
    }),
  })
  .required()
  .description(
    `A text, up to ${MAX_EMBEDDING_INPUTS} texts, a list of token ids, or up to ${MAX_EMBEDDING_INPUTS} lists of token ids; at most ${MAX_EMBEDDING_INPUT_TOKENS} tokens each and ${MAX_EMBEDDING_REQUEST_TOKENS} in all`,
  );

/**
 * `POST /v1/embeddings`: OpenAI's CreateEmbeddingRequest. Any other field is refused naming it,
 * as OpenAI refuses an unrecognized argument.
 */
export const embeddingRequestSchema = Joi.object({
  model: nonBlankString()
    .max(200)
    .required()
    .description("An embedding model (`GET /v1/models` lists them), e.g. `text-embedding-3-small`"),
  input,
  encoding_format: Joi.string()
    .valid("float", "base64")
    .description("`float` (the default): numbers; `base64`: each vector's little-endian float32 bytes in base64"),
  dimensions: Joi.number()
    .integer()
    .min(1)
    .description("A shorter vector (text-embedding-3 models only), at most the model's size"),
  user: Joi.string().max(256).allow("").description("Your end user's id, passed to the provider"),
})
  .unknown(false)
  .messages({ "object.unknown": "{{#label}} is not a field of OpenAI's embeddings request" })
  .id("CreateEmbeddingRequest");

/** `POST /v1/embeddings`'s answer: OpenAI's CreateEmbeddingResponse. */
export const embeddingResponseSchema = Joi.object({
  object: Joi.valid("list").required(),
  data: Joi.array()
    .items(
      Joi.object({
        object: Joi.valid("embedding").required(),
        index: Joi.number().integer().min(0).required().description("The input's position"),
        embedding: Joi.alternatives(Joi.array().items(Joi.number()), Joi.string())
          .required()
          .description("Numbers, or with `encoding_format: base64` a base64 string"),
      }),
    )
    .required(),
  model: Joi.string().required().description("The requested model"),
  usage: Joi.object({
    prompt_tokens: Joi.number().integer().min(0).required(),
    total_tokens: Joi.number().integer().min(0).required(),
  }).required(),
}).id("CreateEmbeddingResponse");
