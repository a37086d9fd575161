import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { AppError } from "../../shared/errors";
import { resolveModel } from "../../shared/llm/providers";
import { withholdAgentSecrets } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { prepareAgentRequest } from "./agent-completion";
import { chatAsAgent, type ChatCompletionRequest } from "./chat-request";
import { chatStreamFormat } from "./chat-stream";
import { completeRun, type CompletionKind } from "./complete-run";
import { presentChatCompletion } from "../../shared/runs/presenters/chat-completion.presenter";
import type { RunHooks } from "./ready-agents";
import type { RequestUrl } from "./request-egress";
import type { Prefer } from "../spine/prefer";

/**
 * OpenAI's 404 for a model this deployment cannot call (unknown, or its provider has no key),
 * saying why, before anything is stored.
 */
function assertChatModelServable(model: string): void {
  try {
    resolveModel(model);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const message = `The model '${model}' does not exist or cannot be served here: ${err.message}`;
    throw new AppError(404, "MODEL_NOT_FOUND", message, { param: "model" });
  }
}

/** The chat request's agent run: an `agent` run like an agent completion's, answered and streamed in OpenAI's shapes. */
function chatCompletion(
  model: string,
  includeUsage: boolean,
  imageUrls: RequestUrl[],
): CompletionKind<AgentCompletionRequest, "agent"> {
  return {
    kind: "agent",
    prepare(body, owner) {
      assertChatModelServable(model);
      return prepareAgentRequest(body, owner);
    },
    // The egress policy's refusals name the image's place in `messages`.
    agentsOf: (request) => ({ specs: [request.agent_config], images: imageUrls, where: () => "model" }),
    withAgents: (request, [agent]) => ({ ...request, agent_config: agent }),
    withholdSecrets: withholdAgentSecrets,
    streamFormat: (runId, request) => chatStreamFormat(runId, request, { model, includeUsage }),
    present: (run) => presentChatCompletion(run, model),
  };
}

/**
 * `POST /v1/chat/completions`: the conversation becomes one agent run (see `chatAsAgent`), with
 * The agent completion's limits, budget, billing, idempotency and logs; the answer is OpenAI's `chat.completion`,
 * or its chunks when it streams.
 */
export function completeChat(
  deps: ApiDeps,
  body: ChatCompletionRequest,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  const { request, imageUrls } = chatAsAgent(body);
  const includeUsage = Boolean(body.stream_options?.include_usage);
  return completeRun(deps, chatCompletion(body.model, includeUsage, imageUrls), request, owner, prefer, hooks);
}
