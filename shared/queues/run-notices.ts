import type { RedisClient } from "./redis";
import { config } from "../config";
import type { Run } from "../db/entities/run.entity";

/** Channel on which workers announce that a run's row has reached its final state. */
export const runDoneChannel = () => `${config.queue.prefix}:run-done`;
/** Channel on which key revocations are announced, so API processes drop cached keys at once. */
export const keyRevokedChannel = () => `${config.queue.prefix}:key-revoked`;

/** Final rows larger than this are announced by id only; the waiter then reads the row. */
const MAX_ROW_BYTES = 64 * 1024;

/** A run-done notice: the run's id, and the final row as committed when it is small. */
export interface RunDoneNotice {
  id: string;
  row?: Run;
}

/**
 * Tells waiting API processes that a run ended, as soon as its final row is committed: BullMQ's
 * own completion event follows only after the job is moved to completed, several Redis round trips
 * later. The notice carries the committed row (as `RETURNING *` gave it), so the waiter can answer
 * without reading it back (its sealed secrets left out); nothing is stored in Redis. Best effort: waiters also poll their row, and
 * read it from Postgres when a notice has none.
 */
export function announceRunDone(redis: RedisClient, runId: string, row?: Run | null): void {
  let message = JSON.stringify({ id: runId });
  if (row) {
    // The sealed secrets are for workers alone: no waiter needs them, so they do not travel.
    const full = JSON.stringify({ id: runId, row: { ...row, sealed_secrets: null } });
    if (Buffer.byteLength(full) <= MAX_ROW_BYTES) message = full;
  }
  redis.publish(runDoneChannel(), message).catch(() => undefined);
}

const DATE_FIELDS = ["queued_at", "started_at", "finished_at"] as const;

/** Parses a notice; dates come back as Date objects, as Postgres rows have them. */
export function parseRunDoneNotice(message: string): RunDoneNotice | null {
  try {
    const notice = JSON.parse(message) as RunDoneNotice;
    if (typeof notice?.id !== "string") return null;
    const row = notice.row;
    if (row)
      for (const field of DATE_FIELDS) {
        const value = row[field]; // an ISO string in the JSON, whatever the type says
        if (value) row[field] = new Date(value);
      }
    return notice;
  } catch {
    return null;
  }
}

/** Tells API processes that a key was revoked. */
export async function announceKeyRevoked(redis: RedisClient, apiKeyId: string): Promise<void> {
  await redis.publish(keyRevokedChannel(), apiKeyId);
}
