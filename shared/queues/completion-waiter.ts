import type { RedisClient } from "./redis";
import type { Run } from "../db/entities/run.entity";
import { parseRunDoneNotice, runDoneChannel } from "./run-notices";

/** A subscription to one job's completion events, taken before the job is enqueued. */
export interface JobWatch {
  /**
   * Resolves with the first `check()` result that is not undefined, or undefined once `timeoutMs`
   * has passed. `check` runs after each event for the job and every poll interval, never before
   * the first of those, so a job that cannot have finished yet costs no read. When a worker's
   * notice carried the final row, `check` receives it.
   */
  wait<T>(check: (row?: Run) => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined>;
  /** Stops listening (always call it, e.g. in `finally`). */
  close(): void;
}

/**
 * Lets many callers wait for their runs through one shared subscription to the workers' run-done
 * notices, instead of one listener per waiter. Notices are best effort (pub/sub drops what a
 * disconnected subscriber misses), so a notice is only a hint: the caller re-reads its source of
 * truth on a wake-up without a row, and a slow poll covers notices that never arrive. BullMQ's
 * event streams are not read: every final row a worker writes is announced, so reading (and
 * parsing) every event of every job cost each API process CPU for nothing (docs/performance.md).
 */
export class CompletionWaiter {
  private readonly waiting = new Map<string, Set<(row?: Run) => void>>();

  /**
   * `pollMs` is how often one waiter re-reads its row when no event came. `maxPollsPerSecond`
   * bounds the reads of all waiters together: with thousands waiting (a burst), each polls less
   * often instead of the process reading thousands of rows a second on top of the real work,
   * which only matters for a lost event, and then costs that waiter a later answer.
   */
  constructor(
    private readonly pollMs = 1_000,
    private readonly maxPollsPerSecond = 200,
  ) {}

  /** Wakes waiters on the workers' run-done notices (a Redis subscriber of its own). */
  async listenForNotices(subscriber: RedisClient): Promise<void> {
    subscriber.on("message", (channel: string, message: string) => {
      if (channel !== runDoneChannel()) return;
      const notice = parseRunDoneNotice(message);
      if (notice) this.wake(notice.id, notice.row);
    });
    await subscriber.subscribe(runDoneChannel());
  }

  /** Starts listening for a job; subscribe before enqueueing so no event can be missed. */
  watch(jobId: string): JobWatch {
    let woken = false;
    let delivered: Run | undefined;
    let wakeNow: (() => void) | null = null;
    const listener = (row?: Run) => {
      woken = true;
      delivered ??= row;
      wakeNow?.();
    };
    this.subscribe(jobId, listener);
    const pollEvery = () => Math.max(this.pollMs, (this.waiting.size / this.maxPollsPerSecond) * 1_000);
    return {
      wait: async <T>(check: (row?: Run) => Promise<T | undefined>, timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const left = deadline - Date.now();
          if (!woken && left > 0) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, Math.min(left, pollEvery()));
              wakeNow = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wakeNow = null;
          }
          woken = false;
          const result = await check(delivered);
          if (result !== undefined) return result;
          if (Date.now() >= deadline) return undefined;
        }
      },
      close: () => this.unsubscribe(jobId, listener),
    };
  }

  /** Number of jobs someone is waiting for (for tests and metrics). */
  get size(): number {
    return this.waiting.size;
  }

  private wake(jobId: string, row?: Run): void {
    for (const listener of this.waiting.get(jobId) ?? []) listener(row);
  }

  private subscribe(jobId: string, listener: (row?: Run) => void): void {
    let set = this.waiting.get(jobId);
    if (!set) this.waiting.set(jobId, (set = new Set()));
    set.add(listener);
  }

  private unsubscribe(jobId: string, listener: (row?: Run) => void): void {
    const set = this.waiting.get(jobId);
    set?.delete(listener);
    if (set && set.size === 0) this.waiting.delete(jobId);
  }
}
