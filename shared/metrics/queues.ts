import type { Queue } from "bullmq";
import { Gauge } from "prom-client";
import { logger } from "../logger";
import { PREFIX, webRegistry } from "./registry";

const STATES = ["waiting", "active", "delayed", "failed"] as const;
/**
 * What BullMQ counts apart that the gauge reports as `waiting`: a run queued for fair dispatch is
 * prioritized (`fair-priority.ts`), and it waits for a worker like any other.
 */
const COUNTED_AS_WAITING = "prioritized";

/** How long a scrape waits for Redis's job counts: an outage must not hang the scrape. */
const COUNTS_TIMEOUT_MS = 1_000;

/**
 * The queues whose counts a scrape reads, by name: each account shard's queue of that name, whose
 * counts add up (the latest app built wins).
 */
const watched = new Map<string, Queue[]>();

/** Has the web registry report `queues`' job counts on every scrape, one series per queue name across the shards. */
export function watchQueues(queues: Queue[]): void {
  for (const name of new Set(queues.map((queue) => queue.name)))
    watched.set(
      name,
      queues.filter((queue) => queue.name === name),
    );
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

new Gauge({
  name: `${PREFIX}queue_jobs`,
  help: "Jobs per queue and state (waiting, active, delayed, failed), read from Redis on each scrape; absent when Redis does not answer within 1 s",
  labelNames: ["queue", "state"] as const,
  registers: [webRegistry],
  async collect() {
    this.reset();
    await Promise.all(
      [...watched].map(async ([name, shards]) => {
        try {
          const counts = await within(
            Promise.all(shards.map((queue) => queue.getJobCounts(...STATES, COUNTED_AS_WAITING))),
            COUNTS_TIMEOUT_MS,
          );
          for (const state of STATES)
            this.set(
              { queue: name, state },
              counts.reduce(
                (sum, shard) =>
                  sum + (shard[state] ?? 0) + (state === "waiting" ? (shard[COUNTED_AS_WAITING] ?? 0) : 0),
                0,
              ),
            );
        } catch (err) {
          logger.warn(
            { queue: name, err: err instanceof Error ? err.message : err },
            "queue counts unavailable for metrics",
          );
        }
      }),
    );
  },
});
