import type { DataSource } from "typeorm";
import { config } from "../../shared/config";
import { findRun } from "../../shared/db/runs/run-rows";
import { logger } from "../../shared/logger";
import { countWebhookAttempt, countWebhookDeliveriesFrom } from "../../shared/metrics/webhooks";
import { egressFetch } from "../../shared/net/egress";
import { presentStoredJob } from "../../shared/runs/job-read";
import {
  claimDueDelivery,
  countDeliveries,
  recordAttempt,
  urlWithoutQuery,
  type WebhookDelivery,
} from "../../shared/webhooks/webhook-deliveries";
import { signingSecrets } from "../../shared/webhooks/webhook-secrets";
import { signDelivery } from "../../shared/webhooks/webhook-signature";
import { attemptDelivery, type AttemptResult } from "./webhook-attempt";

/** How the sender works; every value but the tests' comes from the `WEBHOOK_*` settings. */
export interface WebhookSenderOptions {
  /** Delays before each retry after a failed attempt; the delivery fails for good after the last. */
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  pollMs: number;
  /** Deliveries attempted at once by this process. */
  concurrency: number;
  /** Most deliveries of one account attempted at once by every sender together. */
  perAccount: number;
  /** How a delivery connects (the egress policy's fetch, which checks every address connected to). */
  fetchVia: typeof fetch;
}

/** A running sender. */
export interface WebhookSender {
  /** Takes no more deliveries and waits for the attempts under way (each bounded by the time-out). */
  close(): Promise<void>;
}

/** Beyond an attempt's own time-out, how long its lease lasts: a sender that died frees it after this. */
const LEASE_MARGIN_MS = 5_000;

/** The body a receiver gets: Standard Webhooks' recommended `{type, timestamp, data}`, `data` the job read. */
async function payloadOf(ds: DataSource, delivery: WebhookDelivery): Promise<string | null> {
  const run = await findRun(ds, delivery.run_id);
  if (!run) return null;
  // A parking's delivery is dated when the run parked, an end's when the run ended.
  const at =
    delivery.event_type === "job.awaiting_approval" ? delivery.created_at : (run.finished_at ?? delivery.created_at);
  const timestamp = new Date(at).toISOString();
  return JSON.stringify({ type: delivery.event_type, timestamp, data: await presentStoredJob(ds, run) });
}

/** When the next attempt is due after `failed` failed attempts, or null when the schedule is used up. */
export function nextAttemptAt(failed: number, schedule: readonly number[], now = Date.now()): Date | null {
  const delay = schedule[failed - 1];
  return delay === undefined ? null : new Date(now + delay);
}

async function deliverOnce(ds: DataSource, delivery: WebhookDelivery, options: WebhookSenderOptions): Promise<void> {
  const body = await payloadOf(ds, delivery);
  let result: AttemptResult;
  if (body === null || delivery.user_id === null) {
    result = { at: new Date().toISOString(), error: "the run is no longer stored", delivered: false };
  } else {
    const secrets = await signingSecrets(ds, delivery.user_id);
    const headers = signDelivery(secrets, delivery.message_id, new Date(), body);
    result = await attemptDelivery(options.fetchVia, delivery.url, body, headers, options.timeoutMs);
  }
  const { delivered, ...attempt } = result;
  const failed = delivery.attempts.length + 1;
  const retryAt = delivered || body === null ? null : nextAttemptAt(failed, options.retryScheduleMs);
  await recordAttempt(ds, delivery.message_id, attempt, delivered ? { delivered } : { delivered, retryAt });
  countWebhookAttempt(delivered ? "delivered" : retryAt ? "retried" : "failed");
  // The URL without its query, which may carry a token.
  logger.info(
    { runId: delivery.run_id, url: urlWithoutQuery(delivery.url), attempt: failed, ...attempt, retryAt },
    delivered ? "webhook delivered" : retryAt ? "webhook attempt failed; retrying" : "webhook failed",
  );
}

/**
 * Starts delivering run webhooks from Postgres: `concurrency` lanes each take a due delivery of the
 * account with the fewest attempts under way (leased, so every process may run a sender and none
 * attempts a delivery twice at once), POST it, record the attempt, and look again; a lane that
 * finds nothing due waits `pollMs`. One account holds at most `perAccount` lanes of all senders, so
 * a receiver that never answers slows only its own account's deliveries.
 */
export function startWebhookSender(ds: DataSource, overrides: Partial<WebhookSenderOptions> = {}): WebhookSender {
  const options: WebhookSenderOptions = {
    ...config.webhooks,
    fetchVia: egressFetch,
    ...overrides,
  };
  countWebhookDeliveriesFrom(() => countDeliveries(ds));
  let closed = false;
  const sleepers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });
  const lane = async () => {
    while (!closed) {
      try {
        const delivery = await claimDueDelivery(ds, options.timeoutMs + LEASE_MARGIN_MS, options.perAccount);
        if (delivery) await deliverOnce(ds, delivery, options);
        else await pause(options.pollMs);
      } catch (err) {
        // Postgres away: the lease frees the delivery, and the lane looks again after a pause.
        logger.warn({ err: err instanceof Error ? err.message : err }, "webhook sender could not deliver");
        await pause(options.pollMs);
      }
    }
  };
  const lanes = Array.from({ length: options.concurrency }, lane);
  return {
    async close() {
      closed = true;
      for (const wake of [...sleepers]) wake();
      await Promise.all(lanes);
    },
  };
}
