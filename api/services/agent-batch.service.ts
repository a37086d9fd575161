import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { sealAgentSecrets } from "../../shared/secrets/agent-secrets";
import type { ApiDeps } from "../deps";
import { presentAgentBatch } from "../presenters/agent-batch.presenter";
import { assertBatchSize, runBatch, syncWaitMs } from "./batch-service";
import { acceptedReply, type Reply } from "./reply";
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
      items: items.map((item) => ({ ...item, agent_config: sealAgentSecrets(item.agent_config), stream: false, budget: effectiveBudget(item.budget, owner.tier) })),
    },
    waitMs,
  );
  if (!done) return acceptedReply(parentId);
  return { status: 200, body: presentAgentBatch(done.parent, done.children) };
}
