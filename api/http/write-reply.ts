import type { Context } from "koa";
import type { Reply } from "../reply";

/** Writes a service's reply (status, body, headers) to the response. */
export function reply(ctx: Context, result: Reply): void {
  ctx.status = result.status;
  if (result.headers) ctx.set(result.headers);
  ctx.body = result.body;
}
