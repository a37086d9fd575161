import { createHash } from "node:crypto";
import type { DataSource } from "typeorm";
import type { IdempotencyKey } from "./entities/idempotency-key.entity";
import { sql } from "./sql";
import { isUuid } from "./uuid";

/** How long a key's first answer is replayed. Older records count as absent and are replaced. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1_000;

/** A stored answer: what the first request got. */
export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type IdempotencyRecord = Pick<
  IdempotencyKey,
  "id" | "request_hash" | "run_id" | "response_status" | "response_body" | "response_headers"
>;

/**
 * Who holds a key after a claim: this request (run it; `runId` names the run an abandoned holder
 * had started, for this request to answer from), or an earlier one (replay or wait for it).
 */
export type Claim = { owned: true; id: string; runId: string | null } | { owned: false; record: IdempotencyRecord };

/** JSON with object keys sorted at every level, so `{a, b}` and `{b, a}` hash the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 hex of method, path and canonical JSON body: what "the same request" means. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`, "utf8")
    .digest("hex");
}

const RECORD_COLUMNS = "id, request_hash, run_id, response_status, response_body, response_headers";

/**
 * Takes the key for this request in one statement when nobody holds it, or when its record has
 * expired (`ttlMs`) or was abandoned unanswered by a request that died (`staleMs`); taking over
 * gives the record a new id. An abandoned record whose run had started keeps that run, for the
 * same request only: another body under the key stays refused while the record lasts. Otherwise
 * returns the holder's record; null when that record vanished between the two statements (its
 * request left no answer), so the caller claims again. Two simultaneous claims serialise on the
 * unique index: exactly one of them owns the key.
 */
export async function claimKey(
  ds: DataSource,
  claim: { apiKeyId: string; key: string; hash: string },
  ttlMs: number,
  staleMs: number,
): Promise<Claim | null> {
  const taken = await sql<{ id: string; run_id: string | null }>(
    ds,
    `INSERT INTO idempotency_keys AS k (api_key_id, key, request_hash) VALUES ($1, $2, $3)
     ON CONFLICT (api_key_id, key) DO UPDATE
       SET id = gen_random_uuid(), request_hash = EXCLUDED.request_hash,
           run_id = CASE WHEN k.created_at < now() - $4::double precision * interval '1 millisecond' THEN NULL
                         ELSE k.run_id END,
           response_status = NULL, response_body = NULL, response_headers = NULL, created_at = now()
       WHERE k.created_at < now() - $4::double precision * interval '1 millisecond'
          OR (k.response_status IS NULL AND k.created_at < now() - $5::double precision * interval '1 millisecond'
              AND (k.run_id IS NULL OR k.request_hash = EXCLUDED.request_hash))
     RETURNING id, run_id`,
    [claim.apiKeyId, claim.key, claim.hash, ttlMs, staleMs],
  );
  if (taken[0]) return { owned: true, id: taken[0].id, runId: taken[0].run_id };
  const rows = await sql<IdempotencyRecord>(
    ds,
    `SELECT ${RECORD_COLUMNS} FROM idempotency_keys WHERE api_key_id = $1 AND key = $2`,
    [claim.apiKeyId, claim.key],
  );
  return rows[0] ? { owned: false, record: rows[0] } : null;
}

/** A record by id; null once it is gone or was taken over (which changes its id). */
export async function findRecord(ds: DataSource, id: string): Promise<IdempotencyRecord | null> {
  const rows = await sql<IdempotencyRecord>(ds, `SELECT ${RECORD_COLUMNS} FROM idempotency_keys WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Stores the first request's answer and the run it created (when `runId` names one). */
export async function saveResponse(
  ds: DataSource,
  id: string,
  response: StoredResponse,
  runId: string | null,
): Promise<void> {
  await sql(
    ds,
    `UPDATE idempotency_keys
        SET response_status = $2, response_body = $3, response_headers = $4,
            run_id = (SELECT r.id FROM runs r WHERE r.id = $5::uuid)
      WHERE id = $1`,
    [
      id,
      response.status,
      JSON.stringify(response.body),
      JSON.stringify(response.headers),
      isUuid(runId) ? runId : null,
    ],
  );
}

/**
 * Notes the run a key's request started, as soon as it exists (before its answer): a duplicate
 * whose original is gone then answers from that run instead of starting another.
 */
export async function recordRun(ds: DataSource, id: string, runId: string): Promise<void> {
  await sql(ds, `UPDATE idempotency_keys SET run_id = $2 WHERE id = $1`, [id, runId]);
}

/**
 * Replaces a kept 504 (the run was still going) with the run's final answer, once a duplicate has
 * it: later duplicates replay that instead of waiting on the run again.
 */
export async function replaceTimedOutAnswer(ds: DataSource, id: string, response: StoredResponse): Promise<void> {
  await sql(
    ds,
    `UPDATE idempotency_keys SET response_status = $2, response_body = $3, response_headers = $4
      WHERE id = $1 AND response_status = 504`,
    [id, response.status, JSON.stringify(response.body), JSON.stringify(response.headers)],
  );
}

/** Frees a key whose request created nothing, so the client may send it again. */
export async function releaseKey(ds: DataSource, id: string): Promise<void> {
  await sql(ds, `DELETE FROM idempotency_keys WHERE id = $1 AND response_status IS NULL`, [id]);
}
