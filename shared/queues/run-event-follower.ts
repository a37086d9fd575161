import { randomUUID } from "node:crypto";
import type { RedisClient } from "./redis";
import { config } from "../config";
import { parseRunEvents, readRunEventsAfter, runEventsKey, type RunEventEntry } from "./run-events";

/** One client's view of one run's events, fed by the process's shared reader. */
export interface RunEventFeed {
  /**
   * The entries that arrived after the last ones taken, waiting up to `waitMs` for the first when
   * none are there yet (an empty list when none came, or when `signal` aborted meanwhile).
   */
  next(waitMs: number, signal?: AbortSignal): Promise<RunEventEntry[]>;
  /** Stops following (always call it, e.g. in `finally`). */
  close(): void;
}

export interface FollowerOptions {
  /** Longest one blocking read lasts; a new follower interrupts it, so this only bounds idle reads. */
  blockMs?: number;
  /** Most entries one read takes from each stream. */
  countPerStream?: number;
  /** Most entries held for one follower that has not taken them: past it, the follower is read again later from where it stopped. */
  maxQueued?: number;
  /** The key prefix of the shard whose streams this follower reads (`shards.ts`); `QUEUE_PREFIX` by default. */
  prefix?: string;
}

/** `a` comes after `b` in a stream (ids are `<ms>-<seq>`). */
function after(a: string, b: string): boolean {
  const [am, as] = a.split("-").map(Number);
  const [bm, bs] = b.split("-").map(Number);
  return am !== bm ? am > bm : (as ?? 0) > (bs ?? 0);
}

class Follower {
  queue: RunEventEntry[] = [];
  wake: (() => void) | null = null;
  constructor(
    readonly runId: string,
    /** The id of the last entry handed to this follower (or its starting point). */
    public cursor: string,
  ) {}
}

/**
 * Every run event stream this web process serves, read through ONE blocking Redis connection:
 * each read is one `XREAD BLOCK … STREAMS k1…kN id1…idN` over the runs currently followed, and
 * each entry goes to the followers of its run. A connection per stream held a Redis client for up
 * to `SYNC_WAIT_MS` each, so a few hundred open streams reached Redis's client limit.
 *
 * A new follower must not wait for the current read to time out, so joining interrupts it: the
 * process adds an entry to a wake stream of its own that every read includes. Unlike `CLIENT
 * UNBLOCK` this cannot race (a wake added before the read starts is read at once, since the reader
 * asks for entries after the last wake it saw) and stays on the deployment's hash slot, so it
 * works on Redis Cluster too.
 *
 * Memory is bounded per follower: a follower holding `maxQueued` entries its client has not taken
 * (a slow client, whose socket applies backpressure) is left out of the reads until it takes them,
 * then read again from its own last entry; the run's stream in Redis is the buffer.
 */
export class RunEventFollower {
  private readonly followers = new Map<string, Set<Follower>>();
  private readonly prefix: string;
  /** In the shard's slot, as every key one XREAD names must be on a cluster. */
  private readonly wakeKey: string;
  private wakeId = "0-0";
  private reading = false;
  private wakeSent = false;
  private looping = false;
  private closed = false;
  private idle: (() => void) | null = null;
  private readonly blockMs: number;
  private readonly countPerStream: number;
  private readonly maxQueued: number;

  /**
   * `reader` is a blocking connection of this follower's own; `control` an ordinary one, on which
   * joins send their wake.
   */
  constructor(
    private readonly reader: RedisClient,
    private readonly control: RedisClient,
    options: FollowerOptions = {},
  ) {
    this.blockMs = options.blockMs ?? 5_000;
    this.countPerStream = options.countPerStream ?? 200;
    this.maxQueued = options.maxQueued ?? 1_000;
    this.prefix = options.prefix ?? config.queue.prefix;
    this.wakeKey = `${this.prefix}:run-events-wake:${randomUUID()}`;
  }

  /** Follows a run's events after `fromId` ("0" for all of them). */
  follow(runId: string, fromId = "0"): RunEventFeed {
    const follower = new Follower(runId, fromId);
    let set = this.followers.get(runId);
    if (!set) this.followers.set(runId, (set = new Set()));
    set.add(follower);
    this.kick();
    void this.readNow(follower);
    return {
      next: (waitMs, signal) => this.take(follower, waitMs, signal),
      close: () => {
        const of = this.followers.get(runId);
        of?.delete(follower);
        if (of?.size === 0) this.followers.delete(runId);
        follower.wake?.();
      },
    };
  }

  /** Runs followed now (for tests and metrics). */
  get size(): number {
    return this.followers.size;
  }

  /** Stops reading; followers get no more entries. */
  close(): void {
    this.closed = true;
    this.idle?.();
    this.reader.disconnect();
  }

  private async take(follower: Follower, waitMs: number, signal?: AbortSignal): Promise<RunEventEntry[]> {
    if (follower.queue.length === 0 && waitMs > 0 && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          follower.wake = null;
          resolve();
        };
        const timer = setTimeout(done, waitMs);
        signal?.addEventListener("abort", done, { once: true });
        follower.wake = done;
      });
    }
    const taken = follower.queue;
    follower.queue = [];
    // A follower that was full is read again from its own last entry.
    if (taken.length >= this.maxQueued) this.kick();
    return taken;
  }

  /**
   * What a run's stream already holds goes to its new follower at once, read without blocking on the
   * ordinary connection: a follower that joins a run under way would otherwise wait for the reader
   * to come round to it (a woken read, then a read of every followed stream).
   */
  private async readNow(follower: Follower): Promise<void> {
    const entries = await readRunEventsAfter(
      this.control,
      follower.runId,
      follower.cursor,
      this.countPerStream,
      this.prefix,
    ).catch(() => []);
    this.deliver(follower, entries);
  }

  /** Makes the reader take the current followers into account now. */
  private kick(): void {
    if (this.closed) return;
    if (!this.looping) {
      this.looping = true;
      void this.loop();
    } else if (this.idle) {
      this.idle();
    } else if (this.reading && !this.wakeSent) {
      this.wakeSent = true;
      this.control
        .multi()
        .xadd(this.wakeKey, "MAXLEN", "~", 16, "*", "w", "1")
        .pexpire(this.wakeKey, this.blockMs * 4)
        .exec()
        .catch(() => undefined); // the read then ends at its own timeout
    }
  }

  /** Where each followed run is read from: the earliest cursor among its followers with room. */
  private positions(): Map<string, string> {
    const from = new Map<string, string>();
    for (const [runId, set] of this.followers) {
      for (const f of set) {
        if (f.queue.length >= this.maxQueued) continue;
        const earliest = from.get(runId);
        if (earliest === undefined || after(earliest, f.cursor)) from.set(runId, f.cursor);
      }
    }
    return from;
  }

  private async loop(): Promise<void> {
    while (!this.closed && this.followers.size > 0) {
      const from = this.positions();
      if (from.size === 0) {
        // Every follower is full: wait for one to take its entries (or leave).
        await new Promise<void>((resolve) => (this.idle = resolve));
        this.idle = null;
        continue;
      }
      const runOfKey = new Map([...from.keys()].map((runId) => [runEventsKey(runId, this.prefix), runId]));
      const keys = [this.wakeKey, ...runOfKey.keys()];
      const ids = [this.wakeId, ...from.values()];
      this.reading = true;
      this.wakeSent = false;
      let reply: [string, [string, string[]][]][] | null;
      try {
        reply = (await this.reader.xread(
          "COUNT",
          this.countPerStream,
          "BLOCK",
          this.blockMs,
          "STREAMS",
          ...keys,
          ...ids,
        )) as [string, [string, string[]][]][] | null;
      } catch {
        // Redis away or the connection closing: try again shortly (the feeds' callers poll the row meanwhile).
        reply = null;
        if (!this.closed) await new Promise((resolve) => setTimeout(resolve, 200));
      } finally {
        this.reading = false;
      }
      for (const [key, entries] of reply ?? []) {
        if (key === this.wakeKey) this.wakeId = entries[entries.length - 1][0];
        else this.dispatch(runOfKey.get(key), parseRunEvents(entries));
      }
      // Let the followers handed entries write them before the next read is built (a read of every
      // followed stream costs this process time in proportion to their number).
      if (reply) await new Promise((resolve) => setImmediate(resolve));
    }
    this.looping = false;
    // A follower that joined as the loop was ending starts it again.
    if (!this.closed && this.followers.size > 0) this.kick();
  }

  private dispatch(runId: string | undefined, entries: RunEventEntry[]): void {
    for (const f of (runId && this.followers.get(runId)) || []) this.deliver(f, entries);
  }

  /** Queues for a follower the entries after its cursor, up to its cap (a read may overlap one it already had). */
  private deliver(f: Follower, entries: RunEventEntry[]): void {
    for (const entry of entries) {
      if (f.queue.length >= this.maxQueued) break;
      if (!after(entry.id, f.cursor)) continue;
      f.queue.push(entry);
      f.cursor = entry.id;
    }
    if (f.queue.length > 0) f.wake?.();
  }
}
