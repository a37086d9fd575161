import type { Context } from "koa";
import type { Outcome } from "../reply";
import { writeSse } from "./sse";

/** Writes a use case's outcome: a reply (status, body, headers), or its frames as Server-Sent Events. */
export async function writeReply(ctx: Context, outcome: Outcome): Promise<void> {
  if ("stream" in outcome) return writeSse(ctx, outcome.stream);
  ctx.status = outcome.status;
  if (outcome.headers) ctx.set(outcome.headers);
  ctx.body = outcome.body;
}
