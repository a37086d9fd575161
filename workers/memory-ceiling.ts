import { logger } from "../shared/logger";
import { reportHeldForMemory } from "../shared/metrics/worker-memory";

/** The part of a BullMQ worker the ceiling drives. */
export interface PausableWorker {
  pause(doNotWaitActive?: boolean): Promise<void>;
  resume(): Promise<void>;
}

export interface MemoryCeilingOptions {
  /** Resident memory in MiB above which the workers take no new jobs; 0 turns the ceiling off. */
  maxRssMb: number;
  /** How often memory is read, in ms. */
  everyMs?: number;
  /** The process's resident memory in MiB (injected by tests). */
  readRssMb?: () => number;
}

/** Taking jobs again waits until memory is this far under the ceiling, so one job more or less does not flap it. */
const RESUME_AT = 0.9;

/**
 * Keeps a worker process under its memory ceiling (`WORKER_MAX_RSS_MB`): while resident memory is
 * above it, the workers stop fetching new jobs (the jobs they hold run on, so memory can fall), and
 * once it is back under 90% of it they fetch again. A high job concurrency stays safe this way:
 * the process holds as many waiting runs as its memory allows, not a fixed number.
 */
export class MemoryCeiling {
  /** The workers paused for memory: only those whose `pause()` has resolved, until their `resume()` does. */
  private readonly held = new Set<PausableWorker>();
  /** The pause or resume under way: a check that comes meanwhile waits for it rather than racing it. */
  private changing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly readRssMb: () => number;

  constructor(
    private readonly workers: PausableWorker[],
    private readonly options: MemoryCeilingOptions,
  ) {
    this.readRssMb = options.readRssMb ?? (() => process.memoryUsage.rss() / 2 ** 20);
  }

  /** Whether any worker is held back now (its pause has taken effect and it has not resumed). */
  get holding(): boolean {
    return this.held.size > 0;
  }

  /** Reads memory every `everyMs` (1 s unless given) until `stop()`; does nothing with no ceiling. */
  start(): void {
    if (this.options.maxRssMb <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.check(), this.options.everyMs ?? 1_000);
    // A ceiling check must never keep a finished process alive.
    this.timer.unref();
  }

  /** Stops reading memory. Workers it paused stay paused: this is called before they close. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Reads memory once and pauses or resumes the workers as it says. A worker whose pause or resume
   * fails keeps its state and is asked again on the next check; one check at a time.
   */
  async check(): Promise<void> {
    if (this.options.maxRssMb <= 0) return;
    if (this.changing) return this.changing; // the next tick reads memory again
    this.changing = this.adjust().finally(() => (this.changing = null));
    return this.changing;
  }

  private async adjust(): Promise<void> {
    const { maxRssMb } = this.options;
    const rssMb = this.readRssMb();
    const facts = { rssMb: Math.round(rssMb), maxRssMb };
    if (rssMb > maxRssMb) {
      // Without waiting for the active jobs: they finish in their own time, no new one starts.
      const changed = await this.change(
        this.workers.filter((w) => !this.held.has(w)),
        (w) => w.pause(true),
        (w) => this.held.add(w),
      );
      if (changed) logger.warn(facts, "memory above WORKER_MAX_RSS_MB: taking no new jobs");
    } else if (rssMb < maxRssMb * RESUME_AT) {
      const changed = await this.change(
        [...this.held],
        (w) => w.resume(),
        (w) => this.held.delete(w),
      );
      if (changed) logger.info(facts, "memory back under WORKER_MAX_RSS_MB: taking jobs again");
    }
  }

  /**
   * Asks each worker for the change and records it for those whose call resolved; the gauge follows
   * what was recorded. Whether every one of them changed (none to change: false).
   */
  private async change(
    workers: PausableWorker[],
    ask: (w: PausableWorker) => Promise<void>,
    record: (w: PausableWorker) => void,
  ): Promise<boolean> {
    if (!workers.length) return false;
    const outcomes = await Promise.allSettled(workers.map((w) => ask(w)));
    outcomes.forEach((outcome, i) => outcome.status === "fulfilled" && record(workers[i]));
    reportHeldForMemory(this.holding);
    const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    if (failed.length)
      logger.error(
        { err: failed[0].reason instanceof Error ? failed[0].reason.message : failed[0].reason, failed: failed.length },
        "could not pause or resume workers for memory",
      );
    return failed.length === 0;
  }
}
