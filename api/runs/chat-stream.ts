import type { AgentCompletionRequest, AgentUsage } from "../../shared/contracts/agent-spec";
import type { RunEvent } from "../../shared/queues/run-events";
import type { Frame } from "../reply";
import { agentStreamFormat } from "./agent-stream";
import {
  chatIdentity,
  chatUsage,
  type ChatCompletionIdentity,
} from "../../shared/runs/presenters/chat-completion.presenter";
import type { StreamFormat } from "../spine/run-stream";

/** What a streamed chat completion needs besides its run: the requested model and `stream_options`. */
export interface ChatStreamOptions {
  model: string;
  includeUsage: boolean;
}

/** OpenAI's in-stream error (the SDK throws it as an `APIError`): the run failed after the answer began. */
function chatStreamError(message: string, code: string | null = null): Frame {
  return { data: { error: { message, type: "server_error", param: null, code } } };
}

/**
 * OpenAI's `chat.completion.chunk` frames, all bare `data:` frames: the role first, a content
 * delta per chunk of the agent's answer as it streams, a last chunk with `finish_reason`, with
 * `stream_options.include_usage` a chunk with empty `choices` and the usage (and `usage: null`
 * on every other chunk, as OpenAI sends them), then `data: [DONE]`. A failure is one error frame.
 */
export function chatStreamFormat(
  runId: string,
  request: AgentCompletionRequest,
  options: ChatStreamOptions,
): StreamFormat {
  const identity: ChatCompletionIdentity = chatIdentity(runId, new Date(), options.model);
  const usageField = options.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finish: string | null): Frame => ({
    data: {
      ...identity,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...usageField,
    },
  });
  return {
    metadata: chunk({ role: "assistant", content: "" }, null).data as Record<string, unknown>,
    framesFor(event: RunEvent): Frame[] {
      switch (event.type) {
        case "chunk":
          return event.content ? [chunk({ content: event.content }, null)] : [];
        case "finish": {
          const usage: Frame[] = options.includeUsage
            ? [
                {
                  data: {
                    ...identity,
                    object: "chat.completion.chunk",
                    choices: [],
                    usage: chatUsage(event.usage as AgentUsage | null),
                  },
                },
              ]
            : [];
          return [chunk({}, "stop"), ...usage, { data: "[DONE]", raw: true }];
        }
        case "error":
          return [chatStreamError(event.error)];
        default:
          return [];
      }
    },
    endingOf: agentStreamFormat(runId, request).endingOf,
    cutShort: (error, code) => chatStreamError(error, code),
  };
}
