import type { Redis } from "ioredis";
import { config } from "../config";

/** Channel on which workers announce that a run's row has reached its final state. */
export const runDoneChannel = () => `${config.queue.prefix}:run-done`;
/** Channel on which key revocations are announced, so API processes drop cached keys at once. */
export const keyRevokedChannel = () => `${config.queue.prefix}:key-revoked`;

/**
 * Tells waiting API processes that a run ended, as soon as its row is written: BullMQ's own
 * completion event follows only after the job is moved to completed, a few Redis round trips later.
 * Best effort: the waiters also listen to BullMQ's events and poll the row.
 */
export function announceRunDone(redis: Redis, runId: string): void {
  redis.publish(runDoneChannel(), runId).catch(() => undefined);
}

/** Tells API processes that a key was revoked. */
export async function announceKeyRevoked(redis: Redis, apiKeyId: string): Promise<void> {
  await redis.publish(keyRevokedChannel(), apiKeyId);
}
