import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { SignJWT } from "jose";
import type { DataSource } from "typeorm";
import type { config } from "../../shared/config";
import { ensureUser } from "../../shared/db/user-store";

/** How long the printed sign-in link (and the session it starts) lasts, at most. */
const LINK_SECONDS = 8 * 3_600;

/**
 * The session secret `npm start` gives its processes when none is configured: made once, kept in a
 * git-ignored file, so the pages accept the development sign-in link and links survive restarts.
 */
export async function devSessionSecret(file: string): Promise<string> {
  const existing = await readFile(file, "utf8").then(
    (s) => s.trim(),
    () => "",
  );
  if (existing) return existing;
  const secret = randomBytes(48).toString("base64");
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
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
