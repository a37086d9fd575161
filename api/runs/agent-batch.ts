import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { withholdAgentSecrets } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import { presentAgentBatch } from "./presenters/agent-batch.presenter";
import { assertBatchSize, runBatch, syncWaitMs } from "./batch";
import { acceptedReply, type Reply } from "../reply";
import { publishAgentPrompts, type OnPublished } from "../marketplace/publishing/publish-agents";
import { attachMarketplacePrompts } from "../marketplace/run-prompts";
import { assertRequestEgress, imageUrls } from "./request-egress";
import { effectiveBudget } from "./run-budget";
import { assertAgentModelsServable } from "./run-models";

/**
 * E3: one child run per item (marketplace prompts applied, agents published when asked), all in parallel across agent workers; answers in request order, an
 * item that fails reported in its slot.
 */
export async function completeAgentBatch(
  deps: ApiDeps,
  items: AgentCompletionRequest[],
  owner: KeyOwner,
  prefer: { respondAsync: boolean; waitMs: number | null },
  onPublished: OnPublished = () => undefined,
): Promise<Reply> {
  assertBatchSize(items.length);
  assertAgentModelsServable(
    items.map((item) => item.agent_config),
    (i) => `[${i}].agent_config`,
  );
  await assertRequestEgress(
    items.map((item) => item.agent_config),
    items.flatMap((item, i) => imageUrls(item, `[${i}]`)),
    (i) => `[${i}].agent_config`,
  );
  // One lookup for every item's marketplace prompts; an unusable one, or an agent that cannot be
  // published, refuses the whole batch (400) before anything is stored.
  const withPrompts = await attachMarketplacePrompts(
    deps.ds,
    items.map((item) => item.agent_config),
    owner.userId,
  );
  const { specs: configs, promptIds } = await publishAgentPrompts(
    deps,
    owner.userId,
    withPrompts,
    (i) => `[${i}].agent_config`,
  );
  onPublished(promptIds);
  const waitMs = syncWaitMs(prefer);
  const { parentId, done } = await runBatch(
    deps,
    {
      parentKind: "agent_batch",
      childKind: "agent",
      parentJob: "agent-batch",
      childJob: "agent-run",
      owner,
      parentRequest: { total_requests: items.length },
      // Items stream nothing: their results come back together.
      items: items.map((item, i) =>
        withholdAgentSecrets({
          ...item,
          agent_config: configs[i],
          stream: false,
          budget: effectiveBudget(item.budget, owner.tier),
        }),
      ),
    },
    waitMs,
  );
  if (!done) return acceptedReply(parentId);
  return { status: 200, body: presentAgentBatch(done.parent, done.children) };
}
