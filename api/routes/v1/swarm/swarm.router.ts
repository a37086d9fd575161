import Router from "@koa/router";
import Joi from "joi";
import type { SwarmRequest } from "../../../../shared/contracts/swarm-request";
import { AVAILABLE_SWARM_TYPES } from "../../../../shared/swarms/swarm-catalog";
import type { ApiDeps } from "../../../deps";
import { rejectOversizedBatch } from "../../../middleware/batch-size";
import { validateBody } from "../../../middleware/validate";
import { documentRoutes } from "../../../openapi/operation";
import { parsePrefer } from "../../../services/prefer-header";
import { streamRun } from "../../../services/run-stream.service";
import { completeSwarmBatch } from "../../../services/swarm-batch.service";
import { completeSwarm } from "../../../services/swarm-completion.service";
import { swarmStreamFormat } from "../../../services/swarm-stream.service";
import { announcePublished } from "../../published-prompts";
import { reply } from "../../reply";
import { swarmRequestSchema } from "../../../schemas/swarm-request.schema";
import { swarmBatchOperation, swarmCompletionOperation, swarmTypesOperation } from "./swarm.openapi";

/** E1's path; its rate-limit verdict is awaited by the run spine (see `defersRateLimitVerdict`). */
export const SWARM_COMPLETIONS_PATH = "/v1/swarm/completions";

/** E2's path; every item counts as one request against the rate limits (see `admissionOf`). */
export const SWARM_BATCH_PATH = "/v1/swarm/batch/completions";

/** E1 `POST /v1/swarm/completions`, E2 `POST /v1/swarm/batch/completions`, `GET /v1/swarms/available`. */
export function swarmRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.post(SWARM_COMPLETIONS_PATH, validateBody(swarmRequestSchema), async (ctx) => {
    const outcome = await completeSwarm(
      deps,
      ctx.state.body as SwarmRequest,
      ctx.state.auth,
      parsePrefer(ctx.get("prefer")),
      {
        onPublished: announcePublished(ctx),
        admission: ctx.state.admission,
      },
    );
    if ("stream" in outcome)
      await streamRun(deps, ctx, outcome.stream.runId, swarmStreamFormat(outcome.stream.runId, outcome.stream.request));
    else reply(ctx, outcome);
  });
  // Items are validated one by one by the service, so a bad item takes its slot instead of failing the batch.
  router.post(SWARM_BATCH_PATH, rejectOversizedBatch, validateBody(Joi.array().required()), async (ctx) => {
    reply(
      ctx,
      await completeSwarmBatch(
        deps,
        ctx.state.body as unknown[],
        ctx.state.auth,
        parsePrefer(ctx.get("prefer")),
        announcePublished(ctx),
      ),
    );
  });
  router.get("/v1/swarms/available", (ctx) => {
    ctx.body = { success: true, swarm_types: AVAILABLE_SWARM_TYPES };
  });
  return documentRoutes(router, swarmCompletionOperation, swarmBatchOperation, swarmTypesOperation);
}
