import Router from "@koa/router";
import type { Context } from "koa";
import { config } from "../../shared/config";
import { createInvite } from "../../shared/auth/invites";
import {
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  passwordProblem,
  verifyPassword,
} from "../../shared/auth/passwords";
import { passwordHashOf, setPasswordHash } from "../../shared/db/account-store";
import { documentRoutes } from "../openapi/operation";
import type { ApiDeps } from "../deps";
import { endOtherSessions } from "../auth/account-sessions";
import { attemptRefusal } from "../auth/sign-in-attempts";
import { ACCOUNT_PATH } from "./cookies";
import { formField, signedInForm } from "./page-forms";
import { pageErrors } from "./page-errors";
import { pageSession, viewerOf, type PageViewer } from "./page-session";
import { accountPageOperations } from "./pages.openapi";
import { renderMessage, renderPage } from "./render";
import { renderSignIn } from "./sign-in-page";

interface AccountPageState {
  notice?: string | null;
  error?: string | null;
  /** An invite link just made, shown once. */
  inviteUrl?: string | null;
}

async function renderAccount(
  ctx: Context,
  deps: Pick<ApiDeps, "ds">,
  viewer: PageViewer,
  status: number,
  state: AccountPageState = {},
): Promise<void> {
  const hasPassword = viewer.kind === "account" && (await passwordHashOf(deps.ds, viewer.userId)) !== null;
  renderPage(ctx, status, "account", {
    account: { name: viewer.name, role: viewer.role, kind: viewer.kind, hasPassword },
    notice: null,
    error: null,
    inviteUrl: null,
    ...state,
    minPasswordLength: MIN_PASSWORD_LENGTH,
    maxPasswordLength: MAX_PASSWORD_LENGTH,
  });
}

/**
 * `/platform/account`: the signed-in account's email and role, a password change (the current
 * password required; every other session of the account ends, so a stolen session does not
 * outlive it), sign-out, and for admins a one-use invite link.
 */
export function accountPageRouter(deps: Pick<ApiDeps, "ds" | "redis" | "sessions" | "accounts">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  router.get(ACCOUNT_PATH, async (ctx) => {
    const viewer = viewerOf(ctx);
    if (!viewer) return renderSignIn(ctx, 401, { next: ACCOUNT_PATH, accounts: deps.accounts });
    await renderAccount(ctx, deps, viewer, 200);
  });

  router.post(`${ACCOUNT_PATH}/password`, signedInForm(ACCOUNT_PATH), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    const stored = viewer.kind === "account" ? await passwordHashOf(deps.ds, viewer.userId) : null;
    if (stored === null)
      return renderMessage(
        ctx,
        403,
        "No password here",
        "This account signs in elsewhere and has no password to change.",
      );
    const wait = await attemptRefusal(deps.redis, deps.accounts, { address: ctx.ip, email: viewer.name });
    if (wait !== null) {
      ctx.set("Retry-After", String(wait));
      return renderAccount(ctx, deps, viewer, 429, { error: "Too many attempts. Try again later." });
    }
    if (!(await verifyPassword(formField(ctx, "current"), stored)))
      return renderAccount(ctx, deps, viewer, 401, { error: "The current password is not right." });
    const password = formField(ctx, "password");
    const problem = passwordProblem(password);
    if (problem) return renderAccount(ctx, deps, viewer, 400, { error: problem });
    await setPasswordHash(deps.ds, viewer.userId, await hashPassword(password));
    const ended = await endOtherSessions(deps.ds, viewer.userId, viewer.token);
    await renderAccount(ctx, deps, viewer, 200, {
      notice: `Your password is changed. ${ended === 1 ? "1 other session was" : `${ended} other sessions were`} signed out.`,
    });
  });

  router.post(`${ACCOUNT_PATH}/invites`, signedInForm(ACCOUNT_PATH), async (ctx) => {
    const viewer = viewerOf(ctx)!;
    if (viewer.role !== "admin") return renderMessage(ctx, 403, "Admins only", "Only an admin can make invite links.");
    const path = await createInvite(deps.ds, viewer.userId, deps.accounts.inviteTtlHours);
    await renderAccount(ctx, deps, viewer, 201, { inviteUrl: `${config.http.platformUrl}${path}` });
  });
  return documentRoutes(router, ...accountPageOperations);
}
