import { randomBytes } from "node:crypto";
import type { DataSource } from "typeorm";
import { seal, unseal, type SealBinding } from "../secrets/sealed";
import { sql } from "../db/sql";

/**
 * Each account's webhook signing secret: made on first use (the first run given a `webhook_url`, or a
 * rotation, so no set-up step comes before the first `webhook_url`), stored sealed to the account, shown in full
 * once, and rotated with a grace period during which the previous secret signs beside the new one.
 */

/** Standard Webhooks' secret spelling: `whsec_` and the key in base64 (24 random bytes, 192 bits). */
const SECRET_PREFIX = "whsec_";

/** How many characters of the key a masked secret shows, so a client can tell which secret it holds. */
const SHOWN_CHARACTERS = 4;

const bindingFor = (userId: string): SealBinding => ({ purpose: "webhook-secret", userId });

function newSecret(userId: string): { secret: string; sealed: string; prefix: string } {
  const secret = `${SECRET_PREFIX}${randomBytes(24).toString("base64")}`;
  const prefix = secret.slice(0, SECRET_PREFIX.length + SHOWN_CHARACTERS);
  return { secret, sealed: seal(secret, bindingFor(userId)), prefix };
}

/** An account's secret as `GET /v1/webhooks/secret` and the rotation show it. */
export interface ShownSecret {
  /** The whole secret the first time it is shown; null afterwards. */
  secret: string | null;
  /** The secret's first characters, then an ellipsis: enough to tell secrets apart, never to sign. */
  masked: string;
  created_at: string;
  /** Until when the previous secret still signs beside this one (after a rotation), else null. */
  previous_expires_at: string | null;
}

interface SecretRow {
  sealed_secret: string;
  secret_prefix: string;
  was_revealed: boolean;
  previous_sealed_secret: string | null;
  previous_until: Date | null;
  created_at: Date;
}

/**
 * Accounts this process has seen holding a secret. A secret goes only with its account (a rotation
 * replaces it in place), so an account found here needs no new one: later runs given a `webhook_url` skip
 * the sealing and the insert. Bounded by clearing it whole, which only costs a repeated insert.
 */
const knownToHaveSecret = new Set<string>();
const KNOWN_ACCOUNTS_LIMIT = 10_000;

/** Makes the account's secret unless it has one (a concurrent maker's wins): on the first run given a `webhook_url`. */
export async function ensureSecret(ds: DataSource, userId: string): Promise<void> {
  if (knownToHaveSecret.has(userId)) return;
  const made = newSecret(userId);
  await sql(
    ds,
    `INSERT INTO webhook_secrets (user_id, sealed_secret, secret_prefix) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO NOTHING`,
    [userId, made.sealed, made.prefix],
  );
  if (knownToHaveSecret.size >= KNOWN_ACCOUNTS_LIMIT) knownToHaveSecret.clear();
  knownToHaveSecret.add(userId);
}

function shown(row: SecretRow, userId: string, reveal: boolean): ShownSecret {
  const live = row.previous_until && new Date(row.previous_until).getTime() > Date.now();
  return {
    secret: reveal ? unseal(row.sealed_secret, bindingFor(userId)) : null,
    masked: `${row.secret_prefix}…`,
    created_at: new Date(row.created_at).toISOString(),
    previous_expires_at: live ? new Date(row.previous_until!).toISOString() : null,
  };
}

/**
 * `GET /v1/webhooks/secret`: the account's secret, in full only the first time it is read; every
 * later read shows it masked; null while the account has none (a read makes none: the first run
 * given a `webhook_url`, or a rotation, does). Marking it shown and reading it are one statement,
 * so two reads at once cannot both see it.
 */
export async function readSecretOnce(ds: DataSource, userId: string): Promise<ShownSecret | null> {
  const [row] = await sql<SecretRow>(
    ds,
    `UPDATE webhook_secrets s SET revealed = true FROM (
       SELECT user_id, revealed FROM webhook_secrets WHERE user_id = $1 FOR UPDATE) before
     WHERE s.user_id = before.user_id
     RETURNING s.sealed_secret, s.secret_prefix, before.revealed AS was_revealed, s.previous_sealed_secret,
       s.previous_until, s.created_at`,
    [userId],
  );
  return row ? shown(row, userId, !row.was_revealed) : null;
}

/**
 * `POST /v1/webhooks/secret/rotate`: a new secret, shown in full in this answer only; the one it
 * replaces keeps signing beside it for `graceMs`, so receivers can switch without losing deliveries.
 */
export async function rotateSecret(ds: DataSource, userId: string, graceMs: number): Promise<ShownSecret> {
  await ensureSecret(ds, userId);
  const made = newSecret(userId);
  const [row] = await sql<SecretRow>(
    ds,
    `UPDATE webhook_secrets SET previous_sealed_secret = sealed_secret,
       previous_until = now() + make_interval(secs => $4::double precision / 1000),
       sealed_secret = $2, secret_prefix = $3, revealed = true, created_at = now()
     WHERE user_id = $1
     RETURNING sealed_secret, secret_prefix, false AS was_revealed, previous_sealed_secret, previous_until, created_at`,
    [userId, made.sealed, made.prefix, graceMs],
  );
  return shown(row, userId, true);
}

/** The secrets a delivery for the account is signed with: the current one, and the previous one during its grace. */
export async function signingSecrets(ds: DataSource, userId: string): Promise<string[]> {
  await ensureSecret(ds, userId);
  const [row] = await sql<Pick<SecretRow, "sealed_secret" | "previous_sealed_secret"> & { previous_live: boolean }>(
    ds,
    `SELECT sealed_secret, previous_sealed_secret, COALESCE(previous_until > now(), false) AS previous_live
       FROM webhook_secrets WHERE user_id = $1`,
    [userId],
  );
  const sealed = [
    row.sealed_secret,
    ...(row.previous_live && row.previous_sealed_secret ? [row.previous_sealed_secret] : []),
  ];
  return sealed.map((one) => unseal(one, bindingFor(userId)));
}
