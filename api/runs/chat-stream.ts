import {
  answersAsked,
  type ChatRunChoice,
  type ChatRunRequest,
  type ChatRunUsage,
} from "../../shared/contracts/chat-run";
import type { RunEvent } from "../../shared/queues/run-events";
import type { Frame } from "../reply";
import { chatIdentity, chatUsage } from "../../shared/runs/presenters/chat-completion.presenter";
import type { StreamFormat } from "../spine/run-stream";

/** OpenAI's in-stream error (the SDK throws it as an `APIError`): the run failed after the answer began. */
function chatStreamError(message: string, code: string | null = null): Frame {
  return { data: { error: { message, type: "server_error", param: null, code } } };
}

/**
 * A chat run's events told from its stored answers: each answer's text and tool calls whole (unless
 * `told`: pieces of them reached the reader already, and a tool call's arguments told twice would
 * not parse), why it ended, then the usage (a stream that lost the worker's events ends this way).
 */
export function chatEndingOf(output: { choices: ChatRunChoice[] } | null, usage: unknown, told = false): RunEvent[] {
  const events: RunEvent[] = [];
  for (const { index: choice, message, finish_reason, logprobs } of output?.choices ?? []) {
    if (told) {
      events.push({ type: "choice_end", choice, finish_reason, logprobs });
      continue;
    }
    if (message.content) events.push({ type: "chunk", content: message.content, ...(choice ? { choice } : {}) });
    message.tool_calls?.forEach((call, index) =>
      events.push({
        type: "tool_call_delta",
        choice,
        index,
        id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      }),
    );
    events.push({ type: "choice_end", choice, finish_reason, logprobs });
  }
  events.push({ type: "finish", usage });
  return events;
}

/**
 * OpenAI's `chat.completion.chunk` frames, all bare `data:` frames: each answer's role first, then
 * a delta per piece of text or tool call as the model streams it, a chunk with each answer's
 * `finish_reason` (and its log probabilities, when asked), with `stream_options.include_usage` a
 * chunk with empty `choices` and the usage (and `usage: null` on every other chunk, as OpenAI
 * sends them), then `data: [DONE]`. A failure is one error frame.
 */
export function chatStreamFormat(runId: string, request: ChatRunRequest, includeUsage: boolean): StreamFormat {
  const identity = chatIdentity(runId, new Date(), request.model);
  const usageField = includeUsage ? { usage: null } : {};
  const chunk = (choices: Record<string, unknown>[]): Frame => ({
    data: { ...identity, object: "chat.completion.chunk", choices, ...usageField },
  });
  const delta = (
    index: number,
    d: Record<string, unknown>,
    finish: string | null = null,
    logprobs: unknown = null,
  ) => ({
    index,
    delta: d,
    logprobs,
    finish_reason: finish,
  });
  const roles = Array.from({ length: answersAsked(request) }, (_, i) => delta(i, { role: "assistant", content: "" }));
  return {
    metadata: chunk(roles).data as Record<string, unknown>,
    framesFor(event: RunEvent): Frame[] {
      switch (event.type) {
        case "chunk":
          return event.content ? [chunk([delta(event.choice ?? 0, { content: event.content })])] : [];
        case "tool_call_delta": {
          const { index, id, name, arguments: args } = event;
          const call = {
            index,
            ...(id ? { id, type: "function" } : {}),
            function: { ...(name ? { name } : {}), arguments: args },
          };
          return [chunk([delta(event.choice, { tool_calls: [call] })])];
        }
        case "choice_end":
          return [chunk([delta(event.choice, {}, event.finish_reason, event.logprobs ?? null)])];
        case "finish": {
          const usage: Frame[] = includeUsage
            ? [
                {
                  data: {
                    ...identity,
                    object: "chat.completion.chunk",
                    choices: [],
                    usage: chatUsage(event.usage as ChatRunUsage | null),
                  },
                },
              ]
            : [];
          return [...usage, { data: "[DONE]", raw: true }];
        }
        case "error":
          return [chatStreamError(event.error)];
        default:
          return [];
      }
    },
    endingOf: (run, told) =>
      run.kind === "chat_completion"
        ? chatEndingOf(run.output, run.usage, told)
        : [{ type: "finish", usage: run.usage }],
    cutShort: (error, code) => chatStreamError(error, code),
  };
}
