import { createHash, randomBytes } from "node:crypto";
import type { DataSource } from "typeorm";
import { insertInvite } from "../db/account-invite-store";

/** Where an invite link sends its holder: the sign-up page, carrying the invite. */
export const SIGN_UP_PATH = "/platform/sign-up";

/** The stored form of an invite or session token: SHA-256, hex (the tokens are random, so no salt is needed). */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new one-use invite (made by an admin, or by the operator when `createdBy` is null); returns its link's path. */
export async function createInvite(ds: DataSource, createdBy: string | null, ttlHours: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await insertInvite(ds, tokenHash(token), createdBy, new Date(Date.now() + ttlHours * 3_600_000));
  return `${SIGN_UP_PATH}?invite=${token}`;
}
