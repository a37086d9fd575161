import Joi from "joi";
import Router from "@koa/router";
import type { Context } from "koa";
import { config } from "../../shared/config";
import { SIGN_UP_PATH, tokenHash } from "../../shared/auth/invites";
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from "../../shared/auth/passwords";
import { isInviteOpen, useInvite } from "../../shared/db/account-invite-store";
import { EmailTakenError, insertAccount } from "../../shared/db/account-store";
import { transaction } from "../../shared/db/sql";
import { documentRoutes } from "../openapi/operation";
import type { ApiDeps } from "../deps";
import { attemptRefusal } from "../auth/sign-in-attempts";
import { seeOther, signInAs } from "./account-sign-in";
import { preSessionOf, SIGN_IN_PATH } from "./cookies";
import { createSignInCsrfToken } from "./csrf-tokens";
import { formField, signInForm } from "./page-forms";
import { pageErrors } from "./page-errors";
import { pageSession } from "./page-session";
import { signUpOperations } from "./pages.openapi";
import { renderMessage, renderPage } from "./render";
import { localPath } from "./sign-in-page";
import { firstSignInOf } from "./used-sign-in-forms";

const emailRule = Joi.string()
  .email({ tlds: { allow: false } })
  .max(254)
  .required();

/** The invite was never made, is used up, or has expired: one answer for all three. */
const INVITE_REFUSED =
  "This invite link is not valid: it may have been used or have expired. Ask an admin for a new one.";

/** An invite token as a link carries it (base64url, 43 characters); anything else is no invite. */
function inviteOf(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

interface SignUpForm {
  next: string;
  invite: string | null;
  email?: string;
  error?: string;
}

function renderSignUp(ctx: Context, status: number, form: SignUpForm): void {
  renderPage(ctx, status, "sign-up", {
    next: form.next,
    invite: form.invite ?? "",
    email: form.email ?? "",
    error: form.error ?? null,
    signInCsrf: createSignInCsrfToken(preSessionOf(ctx)),
    signInPath: `${SIGN_IN_PATH}?next=${encodeURIComponent(form.next)}`,
    minPasswordLength: MIN_PASSWORD_LENGTH,
    maxPasswordLength: MAX_PASSWORD_LENGTH,
  });
}

/**
 * `/platform/sign-up`: makes an account with an email and a password, as the deployment's
 * `SIGN_UP_MODE` allows: anyone (`open`), the holder of an unused, unexpired invite link
 * (`invite`; the invite is used up in the same transaction that makes the account), or nobody
 * (`closed`; the operator's CLI makes accounts). The form carries the sign-in form's pre-session
 * form token, so another site cannot sign a visitor up (and in) to an account of its choosing.
 */
export function signUpRouter(deps: Pick<ApiDeps, "sessions" | "redis" | "ds" | "accounts">): Router {
  const router = new Router();
  router.use(pageErrors(), pageSession(deps.sessions));

  /** Why this request may not sign up, as a page; null when it may. */
  async function refusal(ctx: Context, invite: string | null): Promise<boolean> {
    const mode = deps.accounts.signUpMode;
    if (mode === "closed") {
      renderMessage(ctx, 403, "Sign-up is closed", "This deployment makes accounts through its operator only.");
      return true;
    }
    if (mode === "invite" && !(invite && (await isInviteOpen(deps.ds, tokenHash(invite))))) {
      renderMessage(ctx, 403, "An invite is needed", invite ? INVITE_REFUSED : "Sign-up here is by invite link only.");
      return true;
    }
    return false;
  }

  router.get(SIGN_UP_PATH, async (ctx) => {
    const invite = inviteOf(ctx.query.invite);
    if (await refusal(ctx, invite)) return;
    renderSignUp(ctx, 200, { next: localPath(ctx.query.next), invite });
  });

  router.post(
    SIGN_UP_PATH,
    signInForm((preSession) => firstSignInOf(deps.redis, preSession)),
    async (ctx) => {
      const invite = inviteOf(formField(ctx, "invite"));
      const next = localPath(formField(ctx, "next"));
      if (await refusal(ctx, invite)) return;
      const wait = await attemptRefusal(deps.redis, deps.accounts, { address: ctx.ip });
      if (wait !== null) {
        ctx.set("Retry-After", String(wait));
        return renderSignUp(ctx, 429, { next, invite, error: "Too many attempts from this address. Try again later." });
      }
      const { value: email, error } = emailRule.validate(formField(ctx, "email").trim());
      const form = { next, invite, email: formField(ctx, "email").trim().slice(0, 254) };
      if (error) return renderSignUp(ctx, 400, { ...form, error: "Give a valid email address." });
      const password = formField(ctx, "password");
      const problem = passwordProblem(password);
      if (problem) return renderSignUp(ctx, 400, { ...form, error: problem });
      const passwordHash = await hashPassword(password);
      const made = await transaction(deps.ds, async (tx) => {
        const userId = await insertAccount(tx, { email: email as string, passwordHash });
        if (deps.accounts.signUpMode === "invite" && !(await useInvite(tx, tokenHash(invite!), userId))) {
          throw new InviteTakenError();
        }
        return userId;
      }).catch((err: unknown) => {
        if (err instanceof EmailTakenError || err instanceof InviteTakenError) return err;
        throw err;
      });
      if (made instanceof EmailTakenError)
        return renderSignUp(ctx, 409, { ...form, error: "An account with this email exists. Sign in instead." });
      if (made instanceof InviteTakenError) return renderMessage(ctx, 403, "An invite is needed", INVITE_REFUSED);
      await signInAs(ctx, deps, made, config.platform.session.maxAgeSeconds);
      seeOther(ctx, next);
    },
  );
  return documentRoutes(router, ...signUpOperations);
}

/** Another sign-up used the invite between the check and this one's transaction. */
class InviteTakenError extends Error {}
