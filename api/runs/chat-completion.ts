import type { KeyOwner } from "../../shared/auth/api-keys";
import type { ChatRunRequest } from "../../shared/contracts/chat-run";
import { AppError } from "../../shared/errors";
import { embeddingModel } from "../../shared/llm/embedding-models";
import { resolveModel } from "../../shared/llm/providers";
import { presentChatCompletion } from "../../shared/runs/presenters/chat-completion.presenter";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import type { Prefer } from "../spine/prefer";
import { chatRunOf, type ChatCompletionRequest } from "./chat-request";
import { chatStreamFormat } from "./chat-stream";
import { completeRun, type CompletionKind } from "./complete-run";
import type { RunHooks } from "./ready-agents";
import type { RequestUrl } from "./request-egress";
import { effectiveBudget } from "./run-budget";

/**
 * OpenAI's 404 for a model this deployment cannot call (unknown, or its provider has no key),
 * saying why, before anything is stored.
 */
function assertChatModelServable(model: string): void {
  // An embedding model answers vectors, never a turn: OpenAI refuses it here as an invalid model for the endpoint.
  if (embeddingModel(model))
    throw new AppError(
      400,
      "NOT_A_CHAT_MODEL",
      `'${model}' is an embedding model (POST /v1/embeddings), not a chat model`,
      { param: "model" },
    );
  try {
    resolveModel(model);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const message = `The model '${model}' does not exist or cannot be served here: ${err.message}`;
    throw new AppError(404, "MODEL_NOT_FOUND", message, { param: "model" });
  }
}

/**
 * A chat run ready to store: the model checked servable and the key's tier's budget set. Its
 * request holds no secret of the service's to withhold: the conversation is the client's text, and
 * the options are the allow-list's (no keys, headers or endpoints).
 */
export function prepareChatRun<R extends ChatRunRequest>(request: R, owner: KeyOwner): R {
  assertChatModelServable(request.model);
  return { ...request, budget: effectiveBudget(undefined, owner.tier) };
}

/** The chat request's run: a `chat_completion` run, answered and streamed in OpenAI's shapes. */
function chatCompletion(
  includeUsage: boolean,
  imageUrls: RequestUrl[],
): CompletionKind<ChatRunRequest, "chat_completion"> {
  return {
    kind: "chat_completion",
    prepare: prepareChatRun,
    // No agents; the egress policy's refusals name each image's place in `messages`.
    agentsOf: () => ({ specs: [], images: imageUrls }),
    withAgents: (request) => request,
    withholdSecrets: (request) => ({ request, secrets: [] }),
    streamFormat: (runId, request) => chatStreamFormat(runId, request, includeUsage),
    present: presentChatCompletion,
  };
}

/**
 * `POST /v1/chat/completions`: the conversation becomes one chat run (see `chatRunOf`), with the
 * agent completion's limits, budget, billing, idempotency and logs; the answer is OpenAI's
 * `chat.completion`, or its chunks when it streams.
 */
export function completeChat(
  deps: ApiDeps,
  body: ChatCompletionRequest,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  const { request, imageUrls } = chatRunOf(body);
  const includeUsage = Boolean(body.stream_options?.include_usage);
  return completeRun(deps, chatCompletion(includeUsage, imageUrls), request, owner, prefer, hooks);
}
