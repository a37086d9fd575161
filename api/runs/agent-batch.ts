import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { withholdAgentSecrets } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import type { Reply } from "../reply";
import { assertBatchSize, runBatch, type BatchKind } from "../spine/batch";
import { presentAgentBatch } from "../../shared/runs/presenters/agent-batch.presenter";
import { readyAgents, type RunHooks } from "./ready-agents";
import { imageUrls } from "./request-egress";
import { effectiveBudget } from "./run-budget";
import { assertAgentModelsServable } from "./run-models";
import { assertBuiltinToolsOffered } from "./builtin-tools";
import type { Prefer } from "../spine/prefer";

const AGENT_BATCH: BatchKind<"agent_batch"> = {
  parentKind: "agent_batch",
  present: presentAgentBatch,
};

/**
 * `POST /v1/agent/batch/completions`: one child run per item (marketplace prompts applied, agents published when asked), all in
 * parallel across agent workers; answers in request order, an item that fails reported in its slot.
 * An item that cannot run refuses the whole batch (400) before anything is stored.
 */
export async function completeAgentBatch(
  deps: ApiDeps,
  items: AgentCompletionRequest[],
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Reply> {
  assertBatchSize(items.length);
  return runBatch(deps, AGENT_BATCH, owner, prefer, hooks, async () => {
    const where = (i: number) => `[${i}].agent_config`;
    const specs = items.map((item) => item.agent_config);
    assertAgentModelsServable(specs, where);
    assertBuiltinToolsOffered(items, (i) => `[${i}].tools_enabled`);
    // One pass over every item's agents: one marketplace lookup, one publication.
    const images = items.flatMap((item, i) => imageUrls(item, `[${i}]`));
    const configs = await readyAgents(deps, owner.userId, { specs, images, where }, hooks);
    return {
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
    };
  });
}
