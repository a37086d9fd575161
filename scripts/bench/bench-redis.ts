import { Queue } from "bullmq";
import Redis from "ioredis";

/** Empties the Redis database at `url`, so no job or event from an earlier run is replayed. */
export async function flushRedisDb(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

/** Watches one BullMQ queue's backlog. */
export interface QueueWatcher {
  /** Resolves with the ms it took once nothing waits or runs; rejects after `timeoutMs`. */
  waitUntilIdle(timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

const BACKLOG_STATES = ["wait", "active", "delayed", "prioritized"] as const;

/**
 * Opens a watcher on queue `name`. Used between measurements: a load run stops its clients at the
 * deadline, but the jobs they submitted keep running in the worker and would otherwise eat into
 * the next measurement.
 */
export function watchQueue(url: string, prefix: string, name: string): QueueWatcher {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection, prefix });
  return {
    async waitUntilIdle(timeoutMs) {
      const started = performance.now();
      const deadline = started + timeoutMs;
      for (;;) {
        const counts = await queue.getJobCounts(...BACKLOG_STATES);
        const backlog = Object.values(counts).reduce((a, b) => a + b, 0);
        if (backlog === 0) return performance.now() - started;
        if (performance.now() > deadline) throw new Error(`queue '${name}' still has ${backlog} jobs after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}
