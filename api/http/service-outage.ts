import type { Context } from "koa";
import { asServiceUnavailable } from "../../shared/unavailable";

/**
 * The error to answer for `err`: the 503 it stands for when Postgres or Redis is unreachable
 * (logged as a warning: an outage, not a bug), otherwise `err` itself.
 */
export function outageAs503(ctx: Context, err: unknown): any {
  const unavailable = asServiceUnavailable(err);
  if (unavailable && unavailable !== err)
    ctx.state.logger?.warn({ err: err instanceof Error ? err.message : String(err) }, unavailable.message);
  return unavailable ?? err;
}
