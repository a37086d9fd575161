import { FlowProducer, Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "./redis";
import { config } from "../config";
import { currentRequestId } from "../logger";
import type { JobDescription } from "./job-description";
import type { JobName } from "../runs/run-kind-catalog";
import { QUEUE_NAMES, type QueueName } from "./queue-names";
import { JOBS, type JobData } from "./registry";
import { shardOf, shardPrefixes } from "./shards";
import { traceparentField } from "../tracing/request-trace";

/** Job options every job gets: crash retries with backoff, and finished jobs kept by age. */
function defaultJobOptions(): JobsOptions {
  return {
    attempts: config.queue.attempts,
    backoff: { type: "exponential", delay: 1_000 },
    // Kept by age (never removed at once, so a late waiter still finds the job), and capped in
    // number so Redis memory stays bounded under load; the run rows in Postgres are the record.
    removeOnComplete: { age: config.queue.keepCompletedSeconds, count: config.queue.keepCompletedCount },
    removeOnFail: { age: 7 * 24 * 3_600, count: config.queue.keepCompletedCount },
  };
}

/** A typed producer for one queue of one shard (by its key prefix; shard 0's is `QUEUE_PREFIX`). */
function createQueue(name: QueueName, connection: RedisClient, prefix = config.queue.prefix): Queue {
  const queue = new Queue(name, { connection, prefix, defaultJobOptions: defaultJobOptions() });
  queue.on("error", () => undefined);
  return queue;
}

/** Producers of every queue in every account shard (`shards.ts`), on one connection. */
export class ShardedQueues {
  /** Each shard's queues, by shard number. */
  readonly shards: Record<QueueName, Queue>[];

  /** The producers' connection, for our own scripts on queue keys (`fair-priority.ts`). */
  readonly connection: RedisClient;

  constructor(connection: RedisClient) {
    this.connection = connection;
    this.shards = shardPrefixes().map(
      (prefix) =>
        Object.fromEntries(QUEUE_NAMES.map((name) => [name, createQueue(name, connection, prefix)])) as Record<
          QueueName,
          Queue
        >,
    );
  }

  /** The queues of an account's shard: where its runs' jobs go. */
  of(accountId: string): Record<QueueName, Queue> {
    return this.shards[shardOf(accountId, this.shards.length)];
  }

  /** Every queue of every shard. */
  all(): Queue[] {
    return this.shards.flatMap((queues) => Object.values(queues));
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.all().map((queue) => queue.close()));
  }
}

/** The current request's id for a job's payload (nothing outside a request), so the worker's lines carry it. */
function requestIdField(): { requestId?: string } {
  const requestId = currentRequestId();
  return requestId ? { requestId } : {};
}

/**
 * Adds a job for a stored run (its payload, and what Bull Board shows of it). The job id is the
 * run's job id, so adding twice is a no-op. The payload also names the request that made the run,
 * for logging, and the request's trace context, for the worker's spans.
 */
export async function enqueue<N extends JobName>(
  queues: Record<QueueName, Queue>,
  name: N,
  payload: JobData<N>,
  jobId: string,
  options: JobsOptions = {},
): Promise<void> {
  const data = { ...payload, ...requestIdField(), ...traceparentField() };
  await queues[JOBS[name].queue].add(name, data, { ...options, jobId });
}

/** Producer of parent/child job flows (batches); each flow names its shard's prefix (`enqueueBatch`). */
export function createFlowProducer(connection: RedisClient): FlowProducer {
  const flows = new FlowProducer({ connection, prefix: config.queue.prefix });
  flows.on("error", () => undefined);
  return flows;
}

/**
 * Adds a parent job that runs once all its children have ended. A child that fails for good does
 * not block the parent: its run is marked failed and the parent reports it in its slot. Parent and
 * children go to the queues of one shard, given by its `prefix` (the account's): BullMQ links them
 * in one script, which a Redis Cluster runs only on keys of one slot. A child's `priority` is its
 * turn in fair dispatch (`fair-priority`).
 */
export async function enqueueBatch<P extends JobName, C extends JobName>(
  flows: FlowProducer,
  prefix: string,
  parent: { name: P; runId: string; about?: JobDescription },
  children: { name: C; runId: string; about?: JobDescription; priority?: number }[],
): Promise<void> {
  const options = defaultJobOptions();
  const origin = { ...requestIdField(), ...traceparentField() };
  await flows.add({
    name: parent.name,
    queueName: JOBS[parent.name].queue,
    prefix,
    data: { ...parent.about, runId: parent.runId, ...origin },
    opts: { ...options, jobId: parent.runId },
    children: children.map((child) => ({
      name: child.name,
      queueName: JOBS[child.name].queue,
      prefix,
      data: { ...child.about, runId: child.runId, ...origin },
      opts: { ...options, jobId: child.runId, ignoreDependencyOnFailure: true, priority: child.priority },
    })),
  });
}
