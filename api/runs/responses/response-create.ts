import type { KeyOwner } from "../../../shared/auth/api-keys";
import type { ChatRunMessage } from "../../../shared/contracts/chat-run";
import type { ResponseRunRequest, ResponseSettings } from "../../../shared/contracts/response-run";
import type { ResponseRun } from "../../../shared/db/entities/run.entity";
import { findRunForUser, isTerminal } from "../../../shared/db/runs/run-rows";
import { BadRequestError } from "../../../shared/errors";
import { presentResponse } from "../../../shared/runs/presenters/response.presenter";
import type { ApiDeps } from "../../deps";
import type { Outcome } from "../../reply";
import { chatCompletionSchema } from "../../schemas/chat-completion.schema";
import { validateRequest } from "../../schemas/validate-request";
import type { Prefer } from "../../spine/prefer";
import { prepareChatRun } from "../chat-completion";
import { chatRunOf, type ChatAsRun, type ChatCompletionRequest } from "../chat-request";
import { completeRun, type CompletionKind } from "../complete-run";
import type { RunHooks } from "../ready-agents";
import type { RequestUrl } from "../request-egress";
import { conversationAfter } from "./response-input";
import { responseAsChat, type ResponseCreateBody } from "./response-request";
import { responseStreamFormat } from "./response-stream";
import { findResponse } from "./responses";

/** Where a chat call's field came from in the Responses request, for a refusal's `param`. */
const RESPONSES_PARAM: Record<string, string> = {
  messages: "input",
  tools: "tools",
  tool_choice: "tool_choice",
  response_format: "text.format",
  max_completion_tokens: "max_output_tokens",
  reasoning_effort: "reasoning.effort",
};

/**
 * The chat call checked as `POST /v1/chat/completions` checks its body (its messages, tools and
 * the provider-option allow-list for the model), then made the run's request by the chat
 * endpoint's own translation. A refusal names the Responses parameter it came from.
 */
function checkedChatRun(chat: Record<string, unknown>): ChatAsRun {
  const { value, error } = validateRequest(chatCompletionSchema, chat);
  if (error) {
    const field = String(error.details[0]?.path[0] ?? "");
    const message = error.details.map((d) => d.message.replace(/"/g, "'")).join("; ");
    // The codes the chat path's own schema failures carry: a missing parameter, or a value refused.
    const code = error.details[0]?.type === "any.required" ? "MISSING_REQUIRED_PARAMETER" : "INVALID_VALUE";
    throw new BadRequestError(message, { param: RESPONSES_PARAM[field] ?? (field || null) }, code);
  }
  return chatRunOf(value as ChatCompletionRequest);
}

/** The response run: a chat call whose request carries the response's settings, answered as a `response`. */
function responseKind(
  settings: ResponseSettings,
  imageUrls: RequestUrl[],
): CompletionKind<ResponseRunRequest, "response"> {
  return {
    kind: "response",
    prepare: prepareChatRun,
    agentsOf: () => ({ specs: [], images: imageUrls }),
    withAgents: (request) => request,
    withholdSecrets: (request) => ({ request, secrets: [] }),
    serviceTier: () => (settings.service_tier === "flex" ? "flex" : undefined),
    streamFormat: (runId, request) => responseStreamFormat(runId, new Date(), request),
    present: presentResponse,
  };
}

/**
 * The conversation `previous_response_id` continues: that response's (see `conversationAfter`),
 * when it is the caller's, stored, not deleted and ended; 404 otherwise, as OpenAI answers.
 */
async function earlierConversation(deps: ApiDeps, id: string | null | undefined, userId: string) {
  if (!id) return [] as ChatRunMessage[];
  const previous = await findResponse(deps, id, userId);
  if (!isTerminal(previous.status))
    throw new BadRequestError(
      `Previous response '${id}' has not ended yet; continue it once it has.`,
      { param: "previous_response_id" },
      "INVALID_REQUEST",
    );
  return conversationAfter(previous.request, previous.output);
}

/**
 * `POST /v1/responses`: the request translated into one chat call (`responseAsChat`), checked as
 * a chat completion is, and run as a `response` run with every run's limits, budget, billing and
 * idempotency. `background: true` does not wait (as `Prefer: respond-async`): the answer is the
 * response `queued`, read later with `GET /v1/responses/{id}`.
 */
export async function createResponse(
  deps: ApiDeps,
  body: ResponseCreateBody,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  const earlier = await earlierConversation(deps, body.previous_response_id, owner.userId);
  const { chat, settings } = responseAsChat(body, earlier);
  const chatRun = checkedChatRun(chat);
  const request: ResponseRunRequest = { ...chatRun.request, response: settings };
  const waiting = settings.background && !body.stream ? { ...prefer, respondAsync: true } : prefer;
  const kind = responseKind(settings, chatRun.imageUrls);
  const outcome = await completeRun(deps, kind, request, owner, waiting, hooks);
  if ("stream" in outcome || outcome.status !== 202) return outcome;
  // Not waited for: the response as accepted, `queued` (as OpenAI answers, even when a worker
  // took it already), in place of the job's 202.
  const { job_id: runId } = outcome.body as { job_id: string };
  const run = (await findRunForUser(deps.ds, runId, owner.userId)) as ResponseRun;
  return { status: 200, body: presentResponse({ ...run, status: "queued" }) };
}
