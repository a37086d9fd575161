import type { KeyOwner } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { withholdAgentSecrets } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import { presentAgentCompletion } from "./presenters/agent-completion.presenter";
import { acceptedReply, type Reply } from "../reply";
import { publishAgentPrompts, type SpineHooks } from "../marketplace/publishing/publish-agents";
import { attachMarketplacePrompts } from "../marketplace/run-prompts";
import { assertRequestEgress, imageUrls } from "./request-egress";
import { effectiveBudget } from "./run-budget";
import { assertAgentModelsServable } from "./run-models";
import { assertSucceeded, runAndWait } from "./submit-run";

/** What E5 hands back: a reply, or a run to stream to the client. */
export type AgentCompletionOutcome = Reply | { stream: { runId: string; request: AgentCompletionRequest } };

/** An E5 request made ready to run: streaming decided and the budget filled in for the caller's tier. */
export function prepareAgentRequest(body: AgentCompletionRequest, owner: KeyOwner): AgentCompletionRequest {
  const stream = Boolean(body.stream ?? body.agent_config.streaming_on);
  return { ...body, stream, budget: effectiveBudget(body.budget, owner.tier) };
}

/**
 * E5: checks the model is servable, applies a marketplace prompt, publishes the agent when asked,
 * queues the run, and answers when it ends (or streams it).
 */
export async function completeAgent(
  deps: ApiDeps,
  body: AgentCompletionRequest,
  owner: KeyOwner,
  prefer: { respondAsync: boolean; waitMs: number | null },
  hooks: SpineHooks = {},
): Promise<AgentCompletionOutcome> {
  assertAgentModelsServable([body.agent_config], () => "agent_config"); // 400 naming the model (and the key to set) before anything is queued
  await assertRequestEgress([body.agent_config], imageUrls(body), () => "agent_config");
  const withPrompts = await attachMarketplacePrompts(deps.ds, [body.agent_config], owner.userId);
  const published = await publishAgentPrompts(deps, owner.userId, withPrompts, () => "agent_config", hooks.admission);
  hooks.onPublished?.(published.promptIds);
  const { request, secrets } = withholdAgentSecrets(
    prepareAgentRequest({ ...body, agent_config: published.specs[0] }, owner),
  );
  const streaming = request.stream && !prefer.respondAsync;
  const waitMs =
    prefer.respondAsync || streaming ? null : Math.min(prefer.waitMs ?? config.http.syncWaitMs, config.http.syncWaitMs);
  const { runId, run } = await runAndWait(
    deps,
    { kind: "agent", job: "agent-run", request, secrets, owner, admission: hooks.admission },
    waitMs,
  );
  if (streaming) return { stream: { runId, request } };
  if (waitMs === null) return acceptedReply(runId);
  assertSucceeded(run, runId, "agent");
  return { status: 200, body: presentAgentCompletion(run) };
}
