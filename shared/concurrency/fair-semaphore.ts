/** Gives back a slot taken from a `FairSemaphore`; a second call does nothing. */
export type Release = () => void;

interface Waiter {
  /** False once granted or gone: the line skips it. */
  pending: boolean;
  grant: (release: Release) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** One party's waiters, first in first out, and how many it was granted in the current turn. */
interface Line {
  party: string;
  waiters: Waiter[];
  head: number;
  weight: number;
  servedThisTurn: number;
}

/**
 * At most `limit` holders at once; the rest wait in one line per party (an account), and the lines
 * are served round-robin, `weight` waiters of a line per turn, each line first in, first out. A
 * party with thousands of waiters thus delays another's next one by at most one turn of each
 * party waiting. A waiter whose signal aborts leaves its line at once (its promise rejects with the
 * signal's reason).
 */
export class FairSemaphore {
  private held = 0;
  private waitingCount = 0;
  /** Lines with waiters, in the order they are served; the first is the one whose turn it is. */
  private readonly turns: Line[] = [];
  private readonly lines = new Map<string, Line>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, not ${limit}`);
  }

  /** Slots taken now. */
  get inUse(): number {
    return this.held;
  }

  /** Callers waiting for a slot, every party together. */
  get waiting(): number {
    return this.waitingCount;
  }

  /**
   * Resolves with a release once a slot is free and it is `party`'s turn; rejects with the signal's
   * reason if it aborts first. `weight` (at least 1) is how many of the party's waiters a turn serves.
   */
  acquire(party: string, weight = 1, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason as unknown);
    if (this.held < this.limit && this.waitingCount === 0) {
      this.held++;
      return Promise.resolve(this.releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { pending: true, grant: resolve, signal };
      this.lineOf(party, weight).waiters.push(waiter);
      this.waitingCount++;
      if (signal) {
        waiter.onAbort = () => {
          // Still waiting: leave the line (a granted waiter has already removed its listener).
          if (!waiter.pending) return;
          waiter.pending = false;
          this.waitingCount--;
          reject(signal.reason as unknown);
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.grantNext();
    });
  }

  private lineOf(party: string, weight: number): Line {
    let line = this.lines.get(party);
    if (!line) {
      line = { party, waiters: [], head: 0, weight: Math.max(1, Math.floor(weight)), servedThisTurn: 0 };
      this.lines.set(party, line);
      this.turns.push(line);
    }
    return line;
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

  /** The next waiter whose turn it is, dropping lines left empty (by grants or aborts). */
  private nextWaiter(): Waiter | undefined {
    while (this.turns.length) {
      const line = this.turns[0];
      while (line.head < line.waiters.length && !line.waiters[line.head].pending) line.head++;
      if (line.head === line.waiters.length) {
        this.turns.shift();
        this.lines.delete(line.party);
        continue;
      }
      if (line.servedThisTurn >= line.weight) {
        // Its turn is over: to the back of the round.
        line.servedThisTurn = 0;
        this.turns.push(this.turns.shift()!);
        continue;
      }
      line.servedThisTurn++;
      const waiter = line.waiters[line.head++];
      // Long lines are read from `head` and compacted now and then: shift() on a long array copies it.
      if (line.head > 1024 && line.head * 2 > line.waiters.length) {
        line.waiters = line.waiters.slice(line.head);
        line.head = 0;
      }
      return waiter;
    }
    return undefined;
  }

  private grantNext(): void {
    while (this.held < this.limit) {
      const waiter = this.nextWaiter();
      if (!waiter) return;
      waiter.pending = false;
      this.waitingCount--;
      if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
      this.held++;
      waiter.grant(this.releaser());
    }
  }
}
