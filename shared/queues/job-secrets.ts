import type { Job } from "bullmq";
import { secretFieldsOf } from "./registry";

/**
 * Removes a job's secret payload fields (e.g. a sealed private key) from its data in Redis. Called
 * once the job has ended for good, successfully or not; a job that will be retried keeps them.
 */
export async function scrubJobSecrets(job: Job): Promise<void> {
  const fields = secretFieldsOf(job.name);
  const data = (job.data ?? {}) as Record<string, unknown>;
  if (!fields.some((field) => field in data)) return;
  const kept = Object.fromEntries(Object.entries(data).filter(([field]) => !fields.includes(field)));
  await job.updateData(kept);
}

/** Whether this attempt is the job's last one (a failure now fails the job for good). */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
