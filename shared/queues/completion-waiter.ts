import type { QueueEvents } from "bullmq";

/**
 * Lets many callers wait for their jobs through one shared `QueueEvents` listener per queue,
 * instead of one listener per waiter. Events are best effort (the stream is trimmed, a Redis
 * restart loses some), so an event is only a hint: the caller re-reads its source of truth on each
 * wake-up, and a slow poll covers events that never arrive.
 */
export class CompletionWaiter {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(events: QueueEvents[], private readonly pollMs = 1_000) {
    for (const source of events) {
      source.on("completed", ({ jobId }) => this.wake(jobId));
      source.on("failed", ({ jobId }) => this.wake(jobId));
    }
  }

  /**
   * Resolves with the first `check()` result that is not undefined, or with undefined once
   * `timeoutMs` has passed. `check` runs after each event for the job and every `pollMs`.
   */
  async waitFor<T>(jobId: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    let wake!: () => void;
    let woken = false;
    const listener = () => {
      woken = true;
      wake?.();
    };
    this.subscribe(jobId, listener);
    try {
      for (;;) {
        const result = await check();
        if (result !== undefined) return result;
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        if (woken) {
          woken = false;
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, this.pollMs));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        woken = false;
      }
    } finally {
      this.unsubscribe(jobId, listener);
    }
  }

  /** Number of jobs someone is waiting for (for tests and metrics). */
  get size(): number {
    return this.waiting.size;
  }

  private wake(jobId: string): void {
    for (const listener of this.waiting.get(jobId) ?? []) listener();
  }

  private subscribe(jobId: string, listener: () => void): void {
    let set = this.waiting.get(jobId);
    if (!set) this.waiting.set(jobId, (set = new Set()));
    set.add(listener);
  }

  private unsubscribe(jobId: string, listener: () => void): void {
    const set = this.waiting.get(jobId);
    set?.delete(listener);
    if (set && set.size === 0) this.waiting.delete(jobId);
  }
}
