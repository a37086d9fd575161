import type { Operation } from "../../../openapi/operation";
import { openAiError } from "../../../openapi/shared-parts";
import { openAiRunErrorResponses } from "./openai-run-errors.openapi";
import { chatCompletionSchema } from "../../../schemas/chat-completion.schema";
import { chatCompletionResponseSchema } from "../../../schemas/openai-response.schema";
import { acceptedResponse, eventStream, RUN_HEADERS } from "../run.openapi";
import { CHAT_COMPLETIONS_PATH } from "./openai-paths";

const ID = "chatcmpl-3d2c1b0a9f8e4d7c8b6a5f4e3d2c1b0a";
const head = `"id":"${ID}","object":"chat.completion.chunk","created":1768473000,"model":"gpt-4.1"`;
const frame = (delta: string, finish: string | null) =>
  `data: {${head},"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}]}`;

/** `POST /v1/chat/completions`. */
export const chatCompletionOperation: Operation = {
  method: "post",
  path: CHAT_COMPLETIONS_PATH,
  summary: "OpenAI-compatible chat completion",
  description:
    "OpenAI's Chat Completions API, answered by one agent run with the same limits, billing, logs and idempotency as `POST /v1/agent/completions`: system messages become the system prompt, earlier turns the history, the last user message the task, image parts the agent's images. Point an OpenAI SDK's base URL at `/v1`. Errors use OpenAI's body `{error: {message, type, param, code}}`. See docs/openai-compatible.md.",
  tags: ["OpenAI compatible"],
  access: "apiKey",
  errorBodies: "openai",
  headers: RUN_HEADERS,
  request: {
    body: chatCompletionSchema,
    examples: {
      simple: {
        summary: "A system prompt and a question",
        value: {
          model: "gpt-4.1",
          messages: [
            { role: "system", content: "You are concise." },
            { role: "user", content: "Name three uses of beeswax." },
          ],
          max_tokens: 300,
        },
      },
      streaming: {
        summary: "Streamed, with the usage chunk",
        value: {
          model: "gpt-4.1",
          messages: [{ role: "user", content: "A haiku about bees." }],
          stream: true,
          stream_options: { include_usage: true },
        },
      },
    },
  },
  responses: {
    200: {
      description: "The agent's answer",
      body: chatCompletionResponseSchema,
      examples: {
        simple: {
          value: {
            id: ID,
            object: "chat.completion",
            created: 1768473000,
            model: "gpt-4.1",
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: "Candles, wood polish and lip balm.", refusal: null },
                logprobs: null,
                finish_reason: "stop",
              },
            ],
            usage: { prompt_tokens: 42, completion_tokens: 9, total_tokens: 51 },
          },
        },
      },
      content: eventStream(
        'With `stream: true`: bare `data:` frames of `chat.completion.chunk` objects: the role first, content deltas as the agent answers, a chunk with `finish_reason: "stop"`, with `stream_options.include_usage` a chunk with empty `choices` and `usage` (and `usage: null` on the others), then `data: [DONE]`. A failure is one `data: {error: {...}}` frame.',
        [
          frame('{"role":"assistant","content":""}', null),
          frame('{"content":"Wax on "}', null),
          frame('{"content":"the wing."}', null),
          frame("{}", '"stop"'),
          "data: [DONE]",
        ],
      ),
    },
    202: acceptedResponse,
    400: openAiError(
      "The body does not match the schema, or a rule is broken: `n` other than 1, no user message, a conversation that does not end with the user's, tools or log probabilities asked for, an image URL the egress policy refuses (`invalid_request_error`; `param` names the field)",
    ),
    404: openAiError('The model cannot be served here (`model_not_found`, `param: "model"`)'),
    ...openAiRunErrorResponses,
  },
};
