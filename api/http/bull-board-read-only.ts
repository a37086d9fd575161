import type { Middleware } from "koa";
import { isUnder } from "./basic-auth";

/** Reads: the board's pages, its assets and its API's GETs. Everything else is one of its actions. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Bull Board read-only (`BULL_BOARD_WRITES` not `true`): every action under `prefix` (retry, clean,
 * promote, pause, remove, edit…) is refused with 403 in the board's own error body, which its UI
 * shows, before the retry routes Apiary answers itself or the board's handlers see it.
 */
export function readOnlyBoard(prefix: string): Middleware {
  const guarded = prefix.toLowerCase();
  return async (ctx, next) => {
    if (!isUnder(ctx, guarded) || READS.has(ctx.method)) return next();
    ctx.status = 403;
    ctx.body = {
      error: { key: "ERRORS.FORBIDDEN" },
      message: "Bull Board is read-only: set BULL_BOARD_WRITES=true to allow its actions (retry, clean, promote…)",
    };
  };
}
