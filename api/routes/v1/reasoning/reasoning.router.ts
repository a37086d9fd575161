import Router from "@koa/router";
import {
  REASONING_CATALOG,
  REASONING_TYPE_NAMES,
  canonicalReasoningType,
} from "../../../../shared/reasoning/reasoning-catalog";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { runRequest } from "../../../http/run-request";
import { writeReply } from "../../../http/write-reply";
import { documentRoutes } from "../../../openapi/operation";
import { completeReasoning, type ReasoningBody } from "../../../runs/reasoning-completion";
import { reasoningRequestSchema } from "../../../schemas/reasoning-request.schema";
import { reasoningCompletionOperation, reasoningTypesOperation } from "./reasoning.openapi";
import type { RunPath } from "../../../../shared/runs/run-kind-catalog";

/** The reasoning agents' run path (a run-starting path: see `RUN_PATHS`). */
const REASONING_COMPLETIONS_PATH = "/v1/reasoning-agent/completions" satisfies RunPath;

/** Every accepted name with what it does and the type it runs as (a constant: built once). */
const REASONING_TYPES = {
  status: "success",
  agent_types: REASONING_TYPE_NAMES,
  types: Object.fromEntries(
    REASONING_TYPE_NAMES.map((name) => {
      const runsAs = canonicalReasoningType(name)!;
      const record = REASONING_CATALOG[runsAs];
      return [
        name,
        { description: record.description, runs_as: runsAs, aliases: record.aliases, fields: record.fields },
      ];
    }),
  ),
};

/** `POST /v1/reasoning-agent/completions`, `GET /v1/reasoning-agent/types`. */
export function reasoningRouter(deps: ApiDeps): Router {
  const router = new Router<V1State>();
  router.post(REASONING_COMPLETIONS_PATH, validateBody<ReasoningBody>(reasoningRequestSchema), async (ctx) => {
    // Not a path that defers its rate-limit verdict (`defersRateLimitVerdict`): admitted already.
    const { prefer, hooks } = runRequest(ctx);
    const outcome = await completeReasoning(deps, ctx.state.body, ctx.state.auth, prefer, hooks);
    await writeReply(ctx, outcome);
  });
  router.get("/v1/reasoning-agent/types", (ctx) => {
    ctx.body = REASONING_TYPES;
  });
  return documentRoutes(router, reasoningCompletionOperation, reasoningTypesOperation);
}
