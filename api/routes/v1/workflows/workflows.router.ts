import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { runRequest } from "../../../http/run-request";
import { writeReply } from "../../../http/write-reply";
import { documentRoutes } from "../../../openapi/operation";
import { completeBatchedGridWorkflow, type BatchedGridWorkflowBody } from "../../../runs/batched-grid-workflow";
import { completeGraphWorkflow, type GraphWorkflowBody } from "../../../runs/graph-workflow";
import { batchedGridWorkflowRequestSchema } from "../../../schemas/batched-grid-workflow-request.schema";
import { graphWorkflowRequestSchema } from "../../../schemas/graph-workflow-request.schema";
import { batchedGridWorkflowOperation, graphWorkflowOperation } from "./workflows.openapi";
import type { RunPath } from "../../../../shared/runs/run-kind-catalog";

/** The workflows' run paths: `satisfies RunPath` keeps each in the run-kind catalog, so under the daily spend ceiling. */
const GRAPH_WORKFLOW_PATH = "/v1/graph-workflow/completions" satisfies RunPath;
const BATCHED_GRID_WORKFLOW_PATH = "/v1/batched-grid-workflow/completions" satisfies RunPath;

/** `POST /v1/graph-workflow/completions` and `POST /v1/batched-grid-workflow/completions`. */
export function workflowsRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(GRAPH_WORKFLOW_PATH, validateBody<GraphWorkflowBody>(graphWorkflowRequestSchema), async (ctx) => {
    const { prefer, hooks } = runRequest(ctx);
    const outcome = await completeGraphWorkflow(deps, ctx.state.body, ctx.state.auth, prefer, hooks);
    await writeReply(ctx, outcome);
  });
  router.post(
    BATCHED_GRID_WORKFLOW_PATH,
    validateBody<BatchedGridWorkflowBody>(batchedGridWorkflowRequestSchema),
    async (ctx) => {
      const { prefer, hooks } = runRequest(ctx);
      const outcome = await completeBatchedGridWorkflow(deps, ctx.state.body, ctx.state.auth, prefer, hooks);
      await writeReply(ctx, outcome);
    },
  );
  return documentRoutes(router, graphWorkflowOperation, batchedGridWorkflowOperation);
}
