import { SignJWT } from "jose";
import type { DataSource } from "typeorm";
import type { config } from "../../shared/config";
import { ensureUser } from "../../shared/db/user-store";
import { localSecret } from "./local-secret";

/** How long the printed sign-in link (and the session it starts) lasts, at most. */
const LINK_SECONDS = 8 * 3_600;

/**
 * The session secret `npm start` gives its processes when none is configured: made once, kept in a
 * git-ignored file, so the pages accept the development sign-in link and links survive restarts.
 */
export function devSessionSecret(file: string): Promise<string> {
  return localSecret(file, 48);
}

/**
 * A sign-in link for the development user (the owner of the development key): a session token
 * signed with the development secret, valid for a few hours, that opens the API-keys page. Only
 * `npm start` makes one; a deployment's sessions come from its identity backend.
 */
export async function devSignInLink(
  ds: DataSource,
  session: typeof config.platform.session & { jwtSecret: string },
  platformUrl: string,
): Promise<string> {
  const user = await ensureUser(ds, "dev");
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuedAt(now)
    .setExpirationTime(now + Math.min(LINK_SECONDS, session.maxAgeSeconds));
  if (session.issuer) jwt = jwt.setIssuer(session.issuer);
  if (session.audience) jwt = jwt.setAudience(session.audience);
  const token = await jwt.sign(new TextEncoder().encode(session.jwtSecret));
  return `${platformUrl}/platform/sign-in?token=${encodeURIComponent(token)}&next=${encodeURIComponent("/platform/api-keys")}`;
}
