import Router from "@koa/router";
import Joi from "joi";
import type { SwarmRequest } from "../../../../shared/contracts/swarm-request";
import { AVAILABLE_SWARM_TYPES } from "../../../../shared/swarms/swarm-catalog";
import type { ApiDeps } from "../../../deps";
import { rejectOversizedBatch } from "../batch-size";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { runRequest } from "../../../http/run-request";
import { documentRoutes } from "../../../openapi/operation";
import { completeSwarmBatch } from "../../../runs/swarm-batch";
import { completeSwarm } from "../../../runs/swarm-completion";
import { writeReply } from "../../../http/write-reply";
import { swarmRequestSchema } from "../../../schemas/swarm-request.schema";
import { swarmBatchOperation, swarmCompletionOperation, swarmTypesOperation } from "./swarm.openapi";
import type { RunPath } from "../../../../shared/runs/run-kind-catalog";

/** The swarm completion's path; its rate-limit verdict is awaited by the run spine (see `defersRateLimitVerdict`). */
export const SWARM_COMPLETIONS_PATH = "/v1/swarm/completions" satisfies RunPath;

/** The swarm batch's path; every item counts as one request against the rate limits (see `admissionOf`). */
const SWARM_BATCH_PATH = "/v1/swarm/batch/completions" satisfies RunPath;

/** The answer of `GET /v1/swarms/available` (and of the MCP tool `list_swarm_types`). */
export function swarmTypesAnswer(): { success: true; swarm_types: readonly string[] } {
  return { success: true, swarm_types: AVAILABLE_SWARM_TYPES };
}

/** `POST /v1/swarm/completions`, `POST /v1/swarm/batch/completions`, `GET /v1/swarms/available`. */
export function swarmRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(SWARM_COMPLETIONS_PATH, validateBody<SwarmRequest>(swarmRequestSchema), async (ctx) => {
    const { prefer, hooks } = runRequest(ctx);
    const outcome = await completeSwarm(deps, ctx.state.body, ctx.state.auth, prefer, hooks);
    await writeReply(ctx, outcome);
  });
  // Items are validated one by one by the service, so a bad item takes its slot instead of failing the batch.
  router.post(
    SWARM_BATCH_PATH,
    rejectOversizedBatch(),
    validateBody<unknown[]>(Joi.array().required()),
    async (ctx) => {
      const { prefer, hooks } = runRequest(ctx);
      await writeReply(ctx, await completeSwarmBatch(deps, ctx.state.body, ctx.state.auth, prefer, hooks));
    },
  );
  router.get("/v1/swarms/available", (ctx) => {
    ctx.body = swarmTypesAnswer();
  });
  return documentRoutes(router, swarmCompletionOperation, swarmBatchOperation, swarmTypesOperation);
}
