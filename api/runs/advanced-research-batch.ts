import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AdvancedResearchRequest } from "../../shared/contracts/advanced-research";
import type { ApiDeps } from "../deps";
import type { Reply } from "../reply";
import { prepareResearch } from "./advanced-research";
import { assertBatchSize, runBatch, type BatchKind } from "../spine/batch";
import { presentAdvancedResearch } from "../../shared/runs/presenters/advanced-research.presenter";
import { readyAgents, type RunHooks } from "./ready-agents";
import { imageUrls } from "./request-egress";
import type { Prefer } from "../spine/prefer";

const RESEARCH_BATCH: BatchKind<"advanced_research_batch"> = {
  parentKind: "advanced_research_batch",
  present: (_parent, children) => children.map(presentAdvancedResearch),
};

/**
 * `POST /v1/advanced-research/batch/completions`: one `advanced_research` run per item, all in
 * parallel across workers; answers with the sessions' answers in request order. An item that
 * cannot run refuses the whole batch (400) before anything is stored; one that fails while running
 * keeps its slot, with null outputs and its `error` (see `presentAdvancedResearch`). The body's own
 * `webhook_url` is told when the whole batch has ended; an item's, when that item has.
 */
export async function completeAdvancedResearchBatch(
  deps: ApiDeps,
  {
    input_schemas: items,
    webhook_url: webhookUrl,
  }: { input_schemas: AdvancedResearchRequest[]; webhook_url?: string | null },
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Reply> {
  assertBatchSize(items.length);
  return runBatch(deps, RESEARCH_BATCH, owner, prefer, hooks, async () => {
    const prepared = items.map((item, i) => prepareResearch(item, owner, `input_schemas[${i}].`));
    const images = prepared.flatMap((item, i) => imageUrls(item, `input_schemas[${i}]`));
    await readyAgents(deps, owner.userId, { specs: [], images });
    return {
      parentRequest: { total_requests: items.length },
      items: prepared.map((request) => ({ request, secrets: [] })),
      webhookUrl,
    };
  });
}
