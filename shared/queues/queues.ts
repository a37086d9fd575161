import { Queue, QueueEvents, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import { config } from "../config";
import { JOBS, type JobName, type JobPayloads, type QueueName } from "./registry";

/** Job options every job gets: crash retries with backoff, and finished jobs kept by age. */
export function defaultJobOptions(): JobsOptions {
  return {
    attempts: config.queue.attempts,
    backoff: { type: "exponential", delay: 1_000 },
    // Kept by age, never removed at once, so a waiter that comes late still finds the job.
    removeOnComplete: { age: config.queue.keepCompletedSeconds },
    removeOnFail: { age: 7 * 24 * 3_600 },
  };
}

/** A typed producer for one queue. */
export function createQueue(name: QueueName, connection: Redis): Queue {
  const queue = new Queue(name, { connection, prefix: config.queue.prefix, defaultJobOptions: defaultJobOptions() });
  queue.on("error", () => undefined);
  return queue;
}

/** One event listener per queue per process; it needs its own blocking connection. */
export function createQueueEvents(name: QueueName, connection: Redis): QueueEvents {
  const events = new QueueEvents(name, { connection, prefix: config.queue.prefix });
  events.on("error", () => undefined);
  return events;
}

/** Adds a job for a stored run. The job id is the run's job id, so adding twice is a no-op. */
export async function enqueue<N extends JobName>(
  queues: Record<QueueName, Queue>,
  name: N,
  payload: JobPayloads[N],
  jobId: string,
  options: JobsOptions = {},
): Promise<void> {
  await queues[JOBS[name].queue].add(name, payload, { ...options, jobId });
}
