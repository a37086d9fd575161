import Router from "@koa/router";
import type { AgentCompletionRequest } from "../../../../shared/contracts/agent-spec";
import type { ApiDeps } from "../../../deps";
import { rejectOversizedBatch } from "../batch-size";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { runRequest } from "../../../http/run-request";
import { documentRoutes } from "../../../openapi/operation";
import { completeAgentBatch } from "../../../runs/agent-batch";
import { writeReply } from "../../../http/write-reply";
import { agentBatchOperation } from "./agent.openapi";
import { agentBatchSchema } from "../../../schemas/agent-request.schema";
import type { RunPath } from "../../../../shared/runs/run-kind-catalog";

/** The agent batch's path; every item counts as one request against the rate limits (see `admissionOf`). */
const AGENT_BATCH_PATH = "/v1/agent/batch/completions" satisfies RunPath;

/** `POST /v1/agent/batch/completions`. */
export function agentBatchRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(
    AGENT_BATCH_PATH,
    rejectOversizedBatch(),
    validateBody<AgentCompletionRequest[]>(agentBatchSchema),
    async (ctx) => {
      const { prefer, hooks } = runRequest(ctx);
      await writeReply(ctx, await completeAgentBatch(deps, ctx.state.body, ctx.state.auth, prefer, hooks));
    },
  );
  return documentRoutes(router, agentBatchOperation);
}
