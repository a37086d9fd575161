import type { Middleware } from "koa";
import type { DataSource } from "typeorm";
import { isModerator } from "../../shared/db/user-store";
import { PlatformError } from "../platform-error";

/**
 * After `platformAuth`: lets only moderators through, anyone else gets 403 `NOT_MODERATOR` before
 * the body is read. The role is read on every request, so taking it back takes effect at once.
 */
export function moderatorOnly(ds: DataSource): Middleware {
  return async (ctx, next) => {
    if (!(await isModerator(ds, ctx.state.auth.userId))) {
      throw new PlatformError(403, "Forbidden", "Only moderators may approve or reject prompts", {}, "NOT_MODERATOR");
    }
    await next();
  };
}
