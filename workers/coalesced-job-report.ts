import type { Job } from "bullmq";
import { luaScript } from "../shared/queues/lua-script";
import type { RedisClient } from "../shared/queues/redis";
import type { JobProgress, JobSteps } from "../shared/queues/job-outcome";
import type { JobReport } from "./handlers/handler";

/**
 * How long a job's progress and log lines gather before they are written: nothing for a run that
 * ends sooner (its steps go in its return value), then at most one write per window.
 */
const REPORT_WINDOW_MS = 250;

/**
 * Writes a job's progress and new log lines in one step, where BullMQ's `updateProgress` and
 * `addLog` take a script each (per line). Same fields as BullMQ's own: the job hash's `progress`
 * (JSON) and the list `<job key>:logs`, which Bull Board reads. BullMQ's `progress` event-stream
 * entry is not written: nothing here reads the event stream (the API learns of runs from
 * run-notices and reads progress from Postgres). Nothing is written for a job that is gone.
 * KEYS: the job's hash, its log list. ARGV: the progress as JSON (empty: unchanged), then lines.
 */
const WRITE_REPORT_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], 'progress', ARGV[1]) end
-- in slices: unpack puts every value on Lua's stack, which holds a few thousand
for first = 2, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, first, math.min(first + 999, #ARGV)))
end
return 0
`;
const writeReportScript = luaScript("apiaryJobReport", WRITE_REPORT_LUA);

/**
 * A job's `JobReport` that coalesces: a run ending within `REPORT_WINDOW_MS` of its start writes
 * nothing while it runs (its return value carries its steps: `resultFields`), a longer one writes
 * its latest progress and every line since the last write, in order, once per window, and the
 * rest as it ends. A job's lines are in its log or in its return value, never some in each. A run that
 * fails or is interrupted writes what is pending as it ends (`close`), so no line is lost.
 */
export class CoalescedJobReport implements JobReport {
  private readonly startedAt = performance.now();
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private pendingProgress: JobProgress | undefined;
  private pendingLines: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Whether the job's log has lines: its later ones are written there too, so it reads in order. */
  private wrote: boolean;
  private closed = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly job: Pick<Job, "id" | "queueQualifiedName" | "attemptsStarted" | "stacktrace">,
    private readonly windowMs = REPORT_WINDOW_MS,
  ) {
    // An attempt after a failed one follows lines its job's log already holds (the failure's
    // outcome, an operator's note). BullMQ counts attempts, but an operator's retry resets the
    // count (api/runs/operator-retry.ts); the failures' stack traces stay.
    this.wrote = job.attemptsStarted > 1 || (job.stacktrace?.length ?? 0) > 0;
  }

  progress(progress: JobProgress): void {
    this.pendingProgress = progress;
    this.schedule();
  }

  log(line: string): void {
    this.pendingLines.push(line);
    this.schedule();
  }

  /**
   * Ends the report as the job completes: the steps for its return value when nothing was written
   * while it ran (no round trip at all), else an empty object once the rest is written (so its
   * log holds every line, in order).
   */
  async resultFields(): Promise<JobSteps> {
    this.stop();
    if (this.wrote) {
      await this.writePending();
      return {};
    }
    const unwritten = this.takePending();
    return {
      ...(unwritten.progress ? { progress: unwritten.progress } : {}),
      ...(unwritten.lines.length ? { log: unwritten.lines } : {}),
    };
  }

  /**
   * Ends the report as the job fails, is delayed or goes back to its queue (no return value is
   * kept then): writes what is pending, with `extraLines` after it, in one round trip.
   */
  async close(extraLines: string[] = []): Promise<void> {
    this.stop();
    await this.writePending(extraLines);
  }

  /** Stops the timer; anything reported later is written at once. */
  private stop(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.closed) {
      void this.writePending();
      return;
    }
    if (this.timer) return;
    const due = Math.max(this.startedAt, this.lastWriteAt) + this.windowMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.writePending();
    }, due - performance.now());
    this.timer.unref();
  }

  private takePending(): { progress: JobProgress | undefined; lines: string[] } {
    const taken = { progress: this.pendingProgress, lines: this.pendingLines };
    this.pendingProgress = undefined;
    this.pendingLines = [];
    return taken;
  }

  /** Writes the pending progress and lines; Redis trouble is ignored (the run is the record). */
  private async writePending(extraLines: string[] = []): Promise<void> {
    const { progress, lines } = this.takePending();
    lines.push(...extraLines);
    if (!progress && !lines.length) return;
    this.wrote = true;
    this.lastWriteAt = performance.now();
    const jobKey = `${this.job.queueQualifiedName}:${this.job.id}`;
    await writeReportScript(
      this.redis,
      [jobKey, `${jobKey}:logs`],
      [progress ? JSON.stringify(progress) : "", ...lines],
    )
      .then(() => undefined)
      .catch(() => undefined);
  }
}
