import type { RedisClient } from "./redis";
import { config } from "../config";

/** What a worker tells a streaming client about a run, in order. */
export type RunEvent =
  | { type: "start" }
  | { type: "chunk"; content: string; agent?: string }
  | { type: "agent_start"; agent: string }
  | { type: "agent_end"; agent: string }
  | { type: "finish"; usage: unknown }
  | { type: "error"; error: string };

/** The Redis stream holding one run's events (kept an hour after the last write). */
export const runEventsKey = (runId: string) => `${config.queue.prefix}:run-events:${runId}`;
const TTL_SECONDS = 3_600;
const MAX_EVENTS = 20_000;

/**
 * Appends a run's events to its Redis stream. Writes are not awaited one by one (a token stream
 * would crawl): one connection keeps them in order, and `flush` waits for the last.
 */
export class RunEventWriter {
  private last: Promise<unknown> = Promise.resolve();
  private expirySet = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly runId: string,
  ) {}

  emit(event: RunEvent): void {
    const key = runEventsKey(this.runId);
    this.last = this.redis.xadd(key, "MAXLEN", "~", MAX_EVENTS, "*", "e", JSON.stringify(event)).catch(() => undefined);
    if (!this.expirySet) {
      this.expirySet = true;
      this.last = this.redis.expire(key, TTL_SECONDS).catch(() => undefined);
    }
  }

  async flush(): Promise<void> {
    await this.last;
  }
}

/** One event as its stream holds it: the entry's id (where a reader resumes) and the event. */
export interface RunEventEntry {
  id: string;
  event: RunEvent;
}

/** A stream's raw entries (`[id, ["e", json]]`) as events. */
export function parseRunEvents(entries: [string, string[]][]): RunEventEntry[] {
  return entries.map(([id, fields]) => ({ id, event: JSON.parse(fields[1]) as RunEvent }));
}

/**
 * Up to `count` of a run's events after `afterId`, without blocking: safe on a shared connection.
 * Following a run as it goes is `RunEventFollower`'s job.
 */
export async function readRunEventsAfter(
  redis: RedisClient,
  runId: string,
  afterId: string,
  count: number,
): Promise<RunEventEntry[]> {
  const reply = (await redis.xread("COUNT", count, "STREAMS", runEventsKey(runId), afterId)) as
    [string, [string, string[]][]][] | null;
  return reply ? parseRunEvents(reply[0][1]) : [];
}
