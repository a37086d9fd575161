import { documentRoutes } from "../openapi/operation";
import { apiKeysPageOperations } from "./pages.openapi";
import Router from "@koa/router";
import type { Context } from "koa";
import { ApiKeyLimitError } from "../../shared/auth/api-keys";
import type { ApiDeps } from "../deps";
import { pageDate } from "./page-format";
import { createKeyFor, keysOf, revokeKeyOf, type ListedKey } from "./api-keys-page";
import { keysPageUsage } from "./api-keys-page.presenter";
import { openNewKey, sealNewKey } from "./new-key-flash";
import { API_KEYS_PATH, clearNewKeyCookie, NEW_KEY_COOKIE, setNewKeyCookie } from "./cookies";
import { formField, signedInForm } from "./page-forms";
import { pageErrors } from "./page-errors";
import { pageSession, viewerOf, type PageViewer } from "./page-session";
import { renderMessage, renderPage } from "./render";
import { renderSignIn } from "./sign-in-page";

const MAX_NAME_LENGTH = 100;
const REVOKED_NOTICE = "The key was revoked. The API refuses it from now on.";

/** A key name: trimmed, 1–100 characters, no control characters. */
function keyName(raw: string): string | null {
  const name = raw.trim();
  return name.length >= 1 && name.length <= MAX_NAME_LENGTH && !/\p{Cc}/u.test(name) ? name : null;
}

interface PageState {
  newKey?: { name: string; key: string } | null;
  notice?: string | null;
  error?: string | null;
}

async function renderKeys(
  ctx: Context,
  deps: Pick<ApiDeps, "ds">,
  viewer: PageViewer,
  status: number,
  state: PageState = {},
  listed?: ListedKey[],
): Promise<void> {
  const [listedKeys, usage] = await Promise.all([
    listed ?? keysOf(deps.ds, viewer.userId),
    keysPageUsage(deps.ds, viewer.userId),
  ]);
  const keys = listedKeys.map((k) => ({
    ...k,
    created: pageDate(k.created_at),
    revoked: k.revoked_at ? pageDate(k.revoked_at) : null,
    lastUsed: usage.lastUse.get(k.id) ?? null,
    spend: usage.spend.get(k.id) ?? "$0",
  }));
  renderPage(ctx, status, "api-keys", {
    keys,
    usage,
    newKey: null,
    notice: null,
    error: null,
    ...state,
    maxNameLength: MAX_NAME_LENGTH,
  });
}

/** 303: the browser follows with a GET, so reloading the result never re-submits the form. */
function seeOther(ctx: Context, path: string): void {
  ctx.status = 303;
  ctx.redirect(path);
}

/**
 * `/platform/api-keys`: a signed-in user lists, creates and revokes their API keys with plain
 * HTML forms. A new key is shown once: it travels sealed in a short-lived cookie from the
 * create form to the next page load, which shows it and drops the cookie. A revocation is
 * announced so the execution API refuses the key at once.
 */
export function apiKeysPageRouter(deps: Pick<ApiDeps, "ds" | "redis" | "sessions">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  router.get(API_KEYS_PATH, async (ctx) => {
    const viewer = viewerOf(ctx);
    if (!viewer) return renderSignIn(ctx, 401, { next: API_KEYS_PATH });
    const flash = openNewKey(ctx.cookies.get(NEW_KEY_COOKIE), viewer.userId);
    if (ctx.cookies.get(NEW_KEY_COOKIE)) clearNewKeyCookie(ctx);
    const keys = await keysOf(deps.ds, viewer.userId);
    const created = flash ? keys.find((k) => k.id === flash.keyId && !k.revoked_at) : undefined;
    const state = {
      newKey: created && flash ? { name: created.name, key: flash.key } : null,
      notice: ctx.query.revoked === "1" ? REVOKED_NOTICE : null,
    };
    await renderKeys(ctx, deps, viewer, 200, state, keys);
  });

  router.post(API_KEYS_PATH, signedInForm(API_KEYS_PATH), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    const name = keyName(formField(ctx, "name"));
    if (!name)
      return renderKeys(ctx, deps, viewer, 400, {
        error: `Give the key a name of 1 to ${MAX_NAME_LENGTH} characters.`,
      });
    const created = await createKeyFor(deps.ds, viewer.userId, name).catch((err: unknown) => {
      if (err instanceof ApiKeyLimitError) return err;
      throw err;
    });
    if (created instanceof ApiKeyLimitError)
      return renderKeys(ctx, deps, viewer, created.status, { error: created.message });
    const { id, key } = created;
    if (viewer.via === "header") return renderKeys(ctx, deps, viewer, 201, { newKey: { name, key } });
    setNewKeyCookie(ctx, sealNewKey(viewer.userId, id, key));
    seeOther(ctx, API_KEYS_PATH);
  });

  router.post(`${API_KEYS_PATH}/:id/revoke`, signedInForm(API_KEYS_PATH), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    if (!(await revokeKeyOf(deps.ds, deps.redis, viewer.userId, ctx.params.id))) {
      return renderMessage(ctx, 404, "No such key", "You have no active API key with that id.");
    }
    if (viewer.via === "header") return renderKeys(ctx, deps, viewer, 200, { notice: REVOKED_NOTICE });
    seeOther(ctx, `${API_KEYS_PATH}?revoked=1`);
  });
  return documentRoutes(router, ...apiKeysPageOperations);
}
