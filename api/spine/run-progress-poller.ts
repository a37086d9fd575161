import type { DataSource } from "typeorm";
import { config } from "../../shared/config";
import { readRunProgress, type ProgressCursor, type RunProgress } from "../../shared/db/runs/run-progress";

interface Waiter extends ProgressCursor {
  resolve(progress: RunProgress | null): void;
}

/**
 * Follows the runs not streamed through Redis that this process's event streams watch: every
 * `EVENTS_POLL_MS`, while anyone waits, one query reads the state and new steps of every watched
 * run (`readRunProgress`), however many clients watch; with no one waiting it stops. So a run that
 * nobody watches costs nothing, and a watched one costs its share of one query a second.
 */
export class RunProgressPoller {
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Queries made so far (for tests and metrics). */
  polls = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly intervalMs = config.http.eventsPollMs,
  ) {}

  /**
   * The run's state and its steps from `fromSeq` on, at the next poll; null when the run no longer
   * exists, the poll failed, or `stop` aborted first.
   */
  next(runId: string, fromSeq: number, stop: AbortSignal): Promise<RunProgress | null> {
    if (this.closed || stop.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        runId,
        fromSeq,
        resolve: (progress) => {
          stop.removeEventListener("abort", onAbort);
          resolve(progress);
        },
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(null);
      };
      stop.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
      this.schedule();
    });
  }

  /** Runs watched now (for tests and metrics). */
  get size(): number {
    return new Set(this.waiters.map((w) => w.runId)).size;
  }

  /** Stops polling; every waiter gets null. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const waiter of this.waiters.splice(0)) waiter.resolve(null);
  }

  private schedule(): void {
    if (this.timer || this.closed || this.waiters.length === 0) return;
    this.timer = setTimeout(() => void this.poll(), this.intervalMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const waiters = this.waiters.splice(0);
    // One cursor per run: the earliest step any of its watchers still needs.
    const from = new Map<string, number>();
    for (const w of waiters) from.set(w.runId, Math.min(from.get(w.runId) ?? w.fromSeq, w.fromSeq));
    let progress: Map<string, RunProgress> | null = null;
    try {
      this.polls++;
      progress = await readRunProgress(
        this.ds,
        [...from].map(([runId, fromSeq]) => ({ runId, fromSeq })),
      );
    } catch {
      // Postgres is away: each stream looks again after its own wait, as when nothing changed.
    }
    this.timer = null;
    for (const w of waiters) {
      const run = progress?.get(w.runId);
      // A failed poll is told as no news: the run goes on, and the stream waits for the next one.
      if (!progress) w.resolve({ status: "running", steps: [] });
      else w.resolve(run ? { status: run.status, steps: run.steps.filter((s) => s.seq >= w.fromSeq) } : null);
    }
    this.schedule();
  }
}
