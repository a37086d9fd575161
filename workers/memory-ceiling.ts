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
  private paused = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly readRssMb: () => number;

  constructor(
    private readonly workers: PausableWorker[],
    private readonly options: MemoryCeilingOptions,
  ) {
    this.readRssMb = options.readRssMb ?? (() => process.memoryUsage.rss() / 2 ** 20);
  }

  /** Whether the workers are held back now. */
  get holding(): boolean {
    return this.paused;
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

  /** Reads memory once and pauses or resumes the workers as it says. */
  async check(): Promise<void> {
    const { maxRssMb } = this.options;
    if (maxRssMb <= 0) return;
    const rssMb = this.readRssMb();
    try {
      if (!this.paused && rssMb > maxRssMb) {
        this.paused = true;
        reportHeldForMemory(true);
        // Without waiting for the active jobs: they finish in their own time, no new one starts.
        await Promise.all(this.workers.map((w) => w.pause(true)));
        logger.warn({ rssMb: Math.round(rssMb), maxRssMb }, "memory above WORKER_MAX_RSS_MB: taking no new jobs");
      } else if (this.paused && rssMb < maxRssMb * RESUME_AT) {
        this.paused = false;
        reportHeldForMemory(false);
        await Promise.all(this.workers.map((w) => w.resume()));
        logger.info({ rssMb: Math.round(rssMb), maxRssMb }, "memory back under WORKER_MAX_RSS_MB: taking jobs again");
      }
    } catch (err) {
      logger.error({ err: err instanceof Error ? err.message : err }, "could not pause or resume workers for memory");
    }
  }
}
