import type { Job } from "bullmq";
import { destroyLaunchKey } from "../secrets/launch-keys";
import type { RedisClient } from "./redis";
import { keepsLaunchKey } from "./registry";

/**
 * Destroys what a job's run kept in Redis for it alone (a launch's sealed signing key). Called once
 * the job has ended for good, successfully or not; a job that will be retried keeps it.
 */
export async function discardJobSecrets(redis: RedisClient, job: Job): Promise<void> {
  const runId = (job.data as { runId?: unknown } | undefined)?.runId;
  // The key waits in the job's own shard (its account's), under the prefix its queue has.
  if (keepsLaunchKey(job.name) && typeof runId === "string") await destroyLaunchKey(redis, runId, job.prefix);
}

/** Whether this attempt is the job's last one (a failure now fails the job for good). */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
