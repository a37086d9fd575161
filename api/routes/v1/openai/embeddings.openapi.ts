import type { Operation } from "../../../openapi/operation";
import { openAiError } from "../../../openapi/shared-parts";
import { openAiRunErrorResponses } from "./openai-run-errors.openapi";
import { embeddingRequestSchema, embeddingResponseSchema } from "../../../schemas/embedding.schema";
import { acceptedResponse, RUN_HEADERS } from "../run.openapi";
import { EMBEDDINGS_PATH } from "./openai-paths";

/** `POST /v1/embeddings`. */
export const embeddingsOperation: Operation = {
  method: "post",
  path: EMBEDDINGS_PATH,
  summary: "OpenAI-compatible embeddings",
  description:
    "OpenAI's Embeddings API, answered by one `embedding` run (one call to the model's provider) with the limits, budget, billing, logs and idempotency of every run: its input tokens are billed at `PRICE_EMBEDDING_PER_MTOK`. Point an OpenAI SDK's base URL at `/v1`. Errors use OpenAI's body `{error: {message, type, param, code}}`. See docs/openai-embeddings.md.",
  tags: ["OpenAI compatible"],
  access: "apiKey",
  errorBodies: "openai",
  headers: RUN_HEADERS,
  request: {
    body: embeddingRequestSchema,
    examples: {
      batch: {
        summary: "Two texts",
        value: { model: "text-embedding-3-small", input: ["Bees make honey.", "Wasps do not."] },
      },
      shortened: {
        summary: "One text, a shorter vector in base64",
        value: { model: "text-embedding-3-large", input: "Bees", dimensions: 256, encoding_format: "base64" },
      },
    },
  },
  responses: {
    200: {
      description: "One vector per input, in input order",
      body: embeddingResponseSchema,
      examples: {
        batch: {
          value: {
            object: "list",
            data: [
              { object: "embedding", index: 0, embedding: [0.0123, -0.0456, 0.0789] },
              { object: "embedding", index: 1, embedding: [-0.0321, 0.0654, -0.0987] },
            ],
            model: "text-embedding-3-small",
            usage: { prompt_tokens: 9, total_tokens: 9 },
          },
        },
      },
    },
    202: acceptedResponse,
    400: openAiError(
      "The body does not match the schema, or a bound is passed: more than 2,048 inputs, an input over 8,192 tokens, over 300,000 tokens in all, `dimensions` for a model that takes none or above its size, a chat model (`invalid_request_error`; `param` names the field)",
    ),
    404: openAiError('Not an embedding model, or one that cannot be served here (`model_not_found`, `param: "model"`)'),
    ...openAiRunErrorResponses,
  },
};
