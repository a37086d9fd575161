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

/** What every example completion shares: its identity. */
const COMPLETION = { id: ID, object: "chat.completion", created: 1768473000, model: "gpt-4.1" };

/** `POST /v1/chat/completions`. */
export const chatCompletionOperation: Operation = {
  method: "post",
  path: CHAT_COMPLETIONS_PATH,
  summary: "OpenAI-compatible chat completion",
  description:
    "OpenAI's Chat Completions API: one model call, passed to the provider as the client wrote it (tools, tool messages, `n`, `logprobs`, `response_format`…), run as a `chat_completion` run with the same limits, billing, logs and idempotency as `POST /v1/agent/completions`. The model's tool calls are the answer: the client runs them and sends the results back as `tool` messages. Point an OpenAI SDK's base URL at `/v1`. Errors use OpenAI's body `{error: {message, type, param, code}}`. See docs/openai-compatible.md.",
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
      tools: {
        summary: "A function the model may call (the client runs it)",
        value: {
          model: "gpt-4.1",
          messages: [{ role: "user", content: "What is the weather in Paris?" }],
          tools: [
            {
              type: "function",
              function: {
                name: "get_weather",
                description: "The weather in a city",
                parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
              },
            },
          ],
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
      description: "The model's answers (one per `n`): text, or the tool calls the client runs",
      body: chatCompletionResponseSchema,
      examples: {
        simple: {
          value: {
            ...COMPLETION,
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: "Candles, wood polish and lip balm.", refusal: null },
                logprobs: null,
                finish_reason: "stop",
              },
            ],
            usage: { prompt_tokens: 42, completion_tokens: 9, total_tokens: 51 },
            system_fingerprint: null,
          },
        },
        tools: {
          value: {
            ...COMPLETION,
            choices: [
              {
                index: 0,
                message: {
                  role: "assistant",
                  content: null,
                  refusal: null,
                  tool_calls: [
                    {
                      id: "call_8f3a2c",
                      type: "function",
                      function: { name: "get_weather", arguments: '{"city":"Paris"}' },
                    },
                  ],
                },
                logprobs: null,
                finish_reason: "tool_calls",
              },
            ],
            usage: { prompt_tokens: 61, completion_tokens: 15, total_tokens: 76 },
            system_fingerprint: null,
          },
        },
      },
      content: eventStream(
        "With `stream: true`: bare `data:` frames of `chat.completion.chunk` objects: the role first, content or `tool_calls` deltas as the model answers (each answer under its `index`), a chunk with each answer's `finish_reason`, with `stream_options.include_usage` a chunk with empty `choices` and `usage` (and `usage: null` on the others), then `data: [DONE]`. A failure is one `data: {error: {...}}` frame.",
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
      "The body does not match the schema, or a rule is broken: `n` above 8, a `tool` message answering no earlier tool call, a `tool_choice` without tools or naming none of them, audio or predicted outputs asked for, an image URL the egress policy refuses (`invalid_request_error`; `param` names the field)",
    ),
    404: openAiError('The model cannot be served here (`model_not_found`, `param: "model"`)'),
    ...openAiRunErrorResponses,
  },
};
