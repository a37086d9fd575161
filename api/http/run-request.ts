import type { ParameterizedContext } from "koa";
import type { RunHooks } from "../runs/ready-agents";
import type { Prefer } from "../spine/prefer";
import { clientPrefer } from "./client-wait";
import { announcePublished } from "./published-prompts";
import type { V1State } from "./state";

/**
 * What a run-creating route hands its use case besides the body and the caller: how the client
 * wants it answered, and the request's hooks (published prompts, the deferred rate-limit verdict,
 * and whether it is another attempt of a request that started a run).
 */
export function runRequest(ctx: ParameterizedContext<V1State>): { prefer: Prefer; hooks: RunHooks } {
  return {
    prefer: clientPrefer(ctx),
    hooks: { onPublished: announcePublished(ctx), admission: ctx.state.admission, attempt: ctx.state.attempt },
  };
}
