import type { DataSource } from "typeorm";
import { sql, transaction } from "../db/sql";

/**
 * The webhook deliveries of runs that ended or parked for approval. A trigger on `runs` makes a
 * run's delivery in the very statement that ends it (success, failure, cancellation, time-out, the
 * abandoned-run sweep) or parks it (`job.awaiting_approval`, one per parking), so no
 * path can forget one and a crash or restart loses none; the webhook sender takes due deliveries
 * from here under a lease, one attempt at a time per delivery, and records each attempt.
 */

/** The longest `webhook_url` accepted: room for a path and a token, not for a payload smuggled in a URL. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The advisory lock webhook claims take turns on (any constant no other code uses). */
const CLAIM_LOCK = 7_406_210_551;

/** One attempt, as the job read shows it. */
export interface DeliveryAttempt {
  at: string;
  /** The receiver's HTTP status; absent when no answer came (time-out, refused, connection error). */
  status_code?: number;
  /** Why the attempt failed without an answer, or was not sent at all. */
  error?: string;
}

/** A delivery's state. */
type DeliveryStatus = "pending" | "delivered" | "failed";

/** A delivery's row. */
export interface WebhookDelivery {
  run_id: string;
  user_id: string | null;
  /** The `webhook-id`: the same on every attempt, so receivers can drop a duplicate. */
  message_id: string;
  event_type: "job.succeeded" | "job.failed" | "job.cancelled" | "job.awaiting_approval";
  url: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  next_attempt_at: Date | null;
  lease_until: Date | null;
  created_at: Date;
  ended_at: Date | null;
}

/**
 * Takes a due delivery, leasing it for `leaseMs` so that no other sender attempts it meanwhile (one
 * held by a sender that died is due again once its lease runs out); null when none may be taken.
 * Fair across accounts: it comes from the account with the fewest attempts under way (leases held
 * now, by every sender), the one due longest ago among those; an account already holding
 * `perAccount` leases gets none until one ends. Without this a receiver that never answers, given
 * many deliveries, would hold every lane for its whole time-out while other accounts' deliveries
 * waited behind it. The leases counted are few (at most every sender's lanes); the due rows are
 * read in one pass, top-1, so a claim costs one scan of what is due. Claims take turns (an advisory
 * lock held for the claim's transaction), so that two lanes never both see an account one lease
 * short of its cap and both take one.
 */
export async function claimDueDelivery(
  ds: DataSource,
  leaseMs: number,
  perAccount: number,
): Promise<WebhookDelivery | null> {
  const rows = await transaction(ds, async (tx) => {
    await sql(tx, `SELECT pg_advisory_xact_lock($1)`, [CLAIM_LOCK]);
    return sql<WebhookDelivery>(
      tx,
      `WITH busy AS (
       SELECT user_id, count(*) AS leased FROM webhook_deliveries
        WHERE status = 'pending' AND lease_until >= now() GROUP BY user_id)
     UPDATE webhook_deliveries d SET lease_until = now() + make_interval(secs => $1::double precision / 1000)
       FROM (SELECT w.message_id FROM webhook_deliveries w
               LEFT JOIN busy ON busy.user_id IS NOT DISTINCT FROM w.user_id
              WHERE w.status = 'pending' AND w.next_attempt_at <= now()
                AND (w.lease_until IS NULL OR w.lease_until < now())
                AND coalesce(busy.leased, 0) < $2
              ORDER BY coalesce(busy.leased, 0), w.next_attempt_at LIMIT 1 FOR UPDATE OF w SKIP LOCKED) due
      WHERE d.message_id = due.message_id
     RETURNING d.*`,
      [leaseMs, perAccount],
    );
  });
  return rows[0] ?? null;
}

/**
 * Records an attempt and what follows it: delivered, another attempt at `retryAt`, or failed for
 * good (`retryAt` null after a failed attempt).
 */
export async function recordAttempt(
  ds: DataSource,
  messageId: string,
  attempt: DeliveryAttempt,
  next: { delivered: true } | { delivered: false; retryAt: Date | null },
): Promise<void> {
  const status: DeliveryStatus = next.delivered ? "delivered" : next.retryAt ? "pending" : "failed";
  const retryAt = next.delivered ? null : next.retryAt;
  await sql(
    ds,
    `UPDATE webhook_deliveries SET attempts = attempts || $2::jsonb, status = $3, next_attempt_at = $4,
       lease_until = NULL, ended_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END
     WHERE message_id = $1`,
    [messageId, JSON.stringify([attempt]), status, retryAt],
  );
}

/** A run's latest delivery (its end's, once it ended; a parking's before), if it has one. */
export async function findDelivery(ds: DataSource, runId: string): Promise<WebhookDelivery | null> {
  const rows = await sql<WebhookDelivery>(
    ds,
    `SELECT * FROM webhook_deliveries WHERE run_id = $1 ORDER BY created_at DESC, message_id DESC LIMIT 1`,
    [runId],
  );
  return rows[0] ?? null;
}

/** How many deliveries are pending and how many failed for good, for the operator's metrics. */
export async function countDeliveries(ds: DataSource): Promise<Record<"pending" | "failed", number>> {
  const rows = await sql<{ status: DeliveryStatus; n: string }>(
    ds,
    `SELECT status, count(*) AS n FROM webhook_deliveries WHERE status IN ('pending', 'failed') GROUP BY status`,
  );
  const count = (status: DeliveryStatus) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: count("pending"), failed: count("failed") };
}

/** A webhook URL as shown and logged: without its query or fragment, which may carry a token. */
export function urlWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(not a URL)";
  }
}
