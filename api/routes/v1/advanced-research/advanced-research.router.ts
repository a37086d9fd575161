import Router from "@koa/router";
import type { AdvancedResearchRequest } from "../../../../shared/contracts/advanced-research";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { runRequest } from "../../../http/run-request";
import { writeReply } from "../../../http/write-reply";
import { documentRoutes } from "../../../openapi/operation";
import { completeAdvancedResearch } from "../../../runs/advanced-research";
import { completeAdvancedResearchBatch } from "../../../runs/advanced-research-batch";
import { advancedResearchBatchSchema, advancedResearchSchema } from "../../../schemas/advanced-research.schema";
import { rejectOversizedBatch } from "../batch-size";
import { advancedResearchBatchOperation, advancedResearchOperation } from "./advanced-research.openapi";
import type { RunPath } from "../../../../shared/runs/run-kind-catalog";

const ADVANCED_RESEARCH_PATH = "/v1/advanced-research/completions" satisfies RunPath;
/** Every item counts as one request against the rate limits (see `admissionOf`). */
export const ADVANCED_RESEARCH_BATCH_PATH = "/v1/advanced-research/batch/completions" satisfies RunPath;

/** The research batch's items, which it wraps in `input_schemas`. */
export function researchBatchItems(body: unknown): unknown {
  return (body as { input_schemas?: unknown } | null | undefined)?.input_schemas;
}

/** `POST /v1/advanced-research/completions` and its batch. */
export function advancedResearchRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(ADVANCED_RESEARCH_PATH, validateBody<AdvancedResearchRequest>(advancedResearchSchema), async (ctx) => {
    const { prefer, hooks } = runRequest(ctx);
    const outcome = await completeAdvancedResearch(deps, ctx.state.body, ctx.state.auth, prefer, hooks);
    await writeReply(ctx, outcome);
  });
  router.post(
    ADVANCED_RESEARCH_BATCH_PATH,
    rejectOversizedBatch(researchBatchItems),
    validateBody<{ input_schemas: AdvancedResearchRequest[]; webhook_url?: string | null }>(
      advancedResearchBatchSchema,
    ),
    async (ctx) => {
      const { prefer, hooks } = runRequest(ctx);
      const reply = await completeAdvancedResearchBatch(deps, ctx.state.body, ctx.state.auth, prefer, hooks);
      await writeReply(ctx, reply);
    },
  );
  return documentRoutes(router, advancedResearchOperation, advancedResearchBatchOperation);
}
