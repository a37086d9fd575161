import { Queue } from "bullmq";
import Redis from "ioredis";

/** Watches one BullMQ queue's backlog. */
export interface QueueWatcher {
  /** Resolves with the ms it took once nothing waits or runs; rejects after `timeoutMs`. */
  waitUntilIdle(timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

const BACKLOG_STATES = ["wait", "active", "delayed", "prioritized"] as const;
const POLL_MS = 20;

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
      for (;;) {
        const counts = await queue.getJobCounts(...BACKLOG_STATES);
        const backlog = Object.values(counts).reduce((a, b) => a + b, 0);
        if (backlog === 0) return performance.now() - started;
        if (performance.now() - started > timeoutMs)
          throw new Error(`queue '${name}' still has ${backlog} jobs after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}
