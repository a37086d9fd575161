import type { KeyOwner } from "../../shared/auth/api-keys";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import type { ApiDeps } from "../deps";
import { presentSwarmCompletion } from "./presenters/swarm-completion.presenter";
import { syncWaitMs } from "./batch";
import { publishAgentPrompts, type SpineHooks } from "../marketplace/publishing/publish-agents";
import { attachMarketplacePrompts } from "../marketplace/run-prompts";
import { withholdSwarmSecrets } from "../../shared/secrets/run-secrets";
import { assertRequestEgress, imageUrls } from "./request-egress";
import { acceptedReply, type Reply } from "../reply";
import { assertSucceeded, runAndWait } from "./submit-run";
import { assertSwarmRunnable, normaliseSwarmRequest } from "./swarm-request";

/** What E1 hands back: a reply, or a run to stream to the client. */
export type SwarmCompletionOutcome = Reply | { stream: { runId: string; request: SwarmRequest } };

/**
 * E1: checks the whole-request rules and marketplace prompts (400 before any LLM call), publishes
 * the agents that ask for it, queues the swarm, answers when it ends.
 */
export async function completeSwarm(
  deps: ApiDeps,
  body: SwarmRequest,
  owner: KeyOwner,
  prefer: { respondAsync: boolean; waitMs: number | null },
  hooks: SpineHooks = {},
): Promise<SwarmCompletionOutcome> {
  const normalised = normaliseSwarmRequest(body, owner);
  assertSwarmRunnable(normalised);
  await assertRequestEgress(body.agents ?? [], imageUrls(body));
  const withPrompts = await attachMarketplacePrompts(deps.ds, normalised.agents ?? [], owner.userId);
  const published = await publishAgentPrompts(deps, owner.userId, withPrompts, undefined, hooks.admission);
  hooks.onPublished?.(published.promptIds);
  const { request, secrets } = withholdSwarmSecrets({ ...normalised, agents: published.specs });
  const streaming = request.stream && !prefer.respondAsync;
  const waitMs = streaming ? null : syncWaitMs(prefer);
  const { runId, run } = await runAndWait(
    deps,
    {
      kind: "swarm",
      job: "swarm-run",
      request,
      secrets,
      owner,
      serviceTier: request.service_tier,
      admission: hooks.admission,
    },
    waitMs,
  );
  if (streaming) return { stream: { runId, request } };
  if (waitMs === null) return acceptedReply(runId);
  assertSucceeded(run, runId, "swarm");
  return { status: 200, body: presentSwarmCompletion(run) };
}
