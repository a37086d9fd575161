import type { Context, Middleware } from "koa";
import type { DataSource } from "typeorm";
import type { KeyOwner } from "../../shared/auth/api-keys";
import { isModerator } from "../../shared/db/user-store";
import { AuthenticationError } from "../../shared/errors";
import type { KeyOwnerCache } from "../auth/key-owner-cache";
import type { IdentifyCaller, PlatformCaller } from "../auth/platform-caller";
import { PlatformError } from "../platform-error";
import type { PlatformState, RequestState, V1State, ViewerState } from "./state";

/** The token of `Authorization: Bearer <token>`, or "". */
export function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match ? match[1] : "";
}

/** The key from `x-api-key`, or from `Authorization: Bearer <key>`. */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string {
  const direct = headers["x-api-key"];
  if (typeof direct === "string" && direct.trim()) return direct.trim();
  const authorization = headers.authorization;
  return typeof authorization === "string" ? bearerToken(authorization.trim()) : "";
}

/**
 * Requires a caller `find` recognises and puts it in `ctx.state.auth`, with the request's logger
 * naming it; anyone else is the app's 401.
 */
function authenticate<Caller>(
  find: (ctx: Context) => Promise<Caller | null>,
  logFields: (caller: Caller) => Record<string, unknown>,
): Middleware<Partial<RequestState> & { auth?: Caller }> {
  return async (ctx, next) => {
    const caller = await find(ctx);
    if (!caller) throw new AuthenticationError();
    ctx.state.auth = caller;
    ctx.state.logger = ctx.state.logger?.child(logFields(caller));
    await next();
  };
}

/** `/v1`: requires a valid API key and puts its owner in `ctx.state.auth`. */
export function apiKeyAuth(keys: KeyOwnerCache): Middleware<V1State> {
  return authenticate<KeyOwner>(
    (ctx) => keys.find(presentedKey(ctx.headers)),
    (owner) => ({ keyId: owner.apiKeyId }),
  );
}

/** The platform: `Authorization: Bearer <token>` must name a caller `identify` knows (the fixed 401 otherwise). */
export function platformAuth(identify: IdentifyCaller): Middleware<PlatformState> {
  return authenticate<PlatformCaller>(
    (ctx) => identify(bearerToken(ctx.get("authorization"))),
    (caller) => ({ userId: caller.userId }),
  );
}

/**
 * For endpoints anyone may call (`POST /api/query-prompts`): no `Authorization` header means an anonymous viewer
 * (`ctx.state.auth` stays unset); a header must carry a valid API key or session token, else the
 * fixed 401 — a caller who sends credentials wants to know they were refused.
 */
export function platformViewer(identify: IdentifyCaller): Middleware<ViewerState> {
  const signedIn = platformAuth(identify);
  return (ctx, next) => (ctx.get("authorization") ? signedIn(ctx as Parameters<typeof signedIn>[0], next) : next());
}

/**
 * After `platformAuth`: lets only moderators through, anyone else gets 403 `NOT_MODERATOR` before
 * the body is read. The role is read on every request, so taking it back takes effect at once.
 */
export function moderatorOnly(ds: DataSource): Middleware<PlatformState> {
  return async (ctx, next) => {
    if (!(await isModerator(ds, ctx.state.auth.userId))) {
      throw new PlatformError(403, "Forbidden", "Only moderators may approve or reject prompts", {}, "NOT_MODERATOR");
    }
    await next();
  };
}
