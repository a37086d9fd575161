import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { sealAgentSecrets } from "../../shared/secrets/agent-secrets";
import type { ApiDeps } from "../deps";
import { presentAgentBatch } from "../presenters/agent-batch.presenter";
import { assertBatchSize, runBatch, syncWaitMs } from "./batch-service";
import { acceptedReply, type Reply } from "./reply";
import { attachMarketplacePrompts } from "./marketplace-prompts.service";
import { effectiveBudget } from "./run-budget";

/**
 * E3: one child run per item, all in parallel across agent workers; answers in request order, an
 * item that fails reported in its slot.
 */
export async function completeAgentBatch(
  deps: ApiDeps,
  items: AgentCompletionRequest[],
  owner: KeyOwner,
  prefer: { respondAsync: boolean; waitMs: number | null },
): Promise<Reply> {
  assertBatchSize(items.length);
  // One lookup for every item's marketplace prompts; an unusable one refuses the whole batch (400).
  const configs = await attachMarketplacePrompts(deps.ds, items.map((item) => item.agent_config), owner.userId);
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
      items: items.map((item, i) => ({ ...item, agent_config: sealAgentSecrets(configs[i]), stream: false, budget: effectiveBudget(item.budget, owner.tier) })),
    },
    waitMs,
  );
  if (!done) return acceptedReply(parentId);
  return { status: 200, body: presentAgentBatch(done.parent, done.children) };
}
