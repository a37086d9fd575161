/** Gives back a slot taken from a `FifoSemaphore`; a second call does nothing. */
export type Release = () => void;

interface Waiter {
  /** False once granted or gone: the line skips it. */
  pending: boolean;
  grant: (release: Release) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * At most `limit` holders at once; the rest wait and are served in the order they asked. A waiter
 * whose signal aborts leaves the line at once (its promise rejects with the signal's reason), so
 * a cancelled run never sits behind others for a slot it no longer wants. No package is declared
 * for this (p-limit and p-queue are only transitive here, and neither lets one waiter leave).
 */
export class FifoSemaphore {
  private held = 0;
  // A queue read from `head`, compacted now and then: shift() on a long array copies it.
  private line: Waiter[] = [];
  private head = 0;
  private lineLength = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, not ${limit}`);
  }

  /** Slots taken now. */
  get inUse(): number {
    return this.held;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.lineLength;
  }

  /** Resolves with a release once a slot is free; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason as unknown);
    if (this.held < this.limit && this.lineLength === 0) {
      this.held++;
      return Promise.resolve(this.releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { pending: true, grant: resolve, signal };
      this.line.push(waiter);
      this.lineLength++;
      if (signal) {
        waiter.onAbort = () => {
          // Still waiting: leave the line (a granted waiter has already removed its listener).
          if (!waiter.pending) return;
          waiter.pending = false;
          this.lineLength--;
          reject(signal.reason as unknown);
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      this.grantNext();
    };
  }

  private grantNext(): void {
    while (this.held < this.limit && this.head < this.line.length) {
      const waiter = this.line[this.head++];
      if (!waiter.pending) continue;
      waiter.pending = false;
      this.lineLength--;
      if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
      this.held++;
      waiter.grant(this.releaser());
    }
    if (this.head === this.line.length) {
      this.line = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.line.length) {
      this.line = this.line.slice(this.head);
      this.head = 0;
    }
  }
}
