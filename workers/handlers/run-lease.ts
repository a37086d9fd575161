import { randomUUID } from "node:crypto";
import type { DataSource } from "typeorm";
import type { Run } from "../../shared/db/entities/run.entity";
import { claimRunLease, releaseRunLease, renewRunLease } from "../../shared/db/runs/run-leases";

/** A delivery found its run held by another execution's live lease: the job is to be tried again later. */
export class RunLeasedError extends Error {
  constructor(
    readonly runId: string,
    readonly retryInMs: number,
  ) {
    super(`Run ${runId} is being executed by another delivery; trying again in ${retryInMs} ms`);
    this.name = "RunLeasedError";
  }
}

/** Slack after a lease's expiry before a waiting delivery looks again. */
const RECHECK_MARGIN_MS = 100;

/**
 * The lease an execution holds on its run in Postgres while it runs, renewed in the background.
 * BullMQ delivers a job again when its lock in Redis is lost (a Redis outage, a stalled worker)
 * even if the first execution is still going; with the lease, the second delivery waits (and then
 * finds the run finished) instead of making the run's LLM calls a second time. A crashed
 * execution stops renewing, so its lease runs out as its queue lock does and the retry proceeds.
 */
export class RunLease {
  private readonly lost = new AbortController();
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly ds: DataSource,
    readonly runId: string,
    /** This execution's token: every write it makes to the run is conditional on still holding it. */
    readonly owner: string,
    private readonly leaseMs: number,
  ) {
    this.timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  /**
   * Claims the run for a new execution: the run and its lease, or the run's final row when it has
   * ended already (a duplicate delivery; null when there is no such run). Throws `RunLeasedError`
   * while another execution holds it.
   */
  static async claim(
    ds: DataSource,
    runId: string,
    leaseMs: number,
  ): Promise<{ run: Run; lease: RunLease } | { ended: Run | null }> {
    const owner = randomUUID();
    const claim = await claimRunLease(ds, runId, owner, leaseMs);
    if (claim.state === "finished") return { ended: claim.run };
    if (claim.state === "leased") throw new RunLeasedError(runId, Math.ceil(claim.msLeft) + RECHECK_MARGIN_MS);
    return { run: claim.run, lease: new RunLease(ds, runId, owner, leaseMs) };
  }

  /** Aborts when another execution has taken the run over: this one must stop without writing. */
  get signal(): AbortSignal {
    return this.lost.signal;
  }

  /**
   * Records that a write was refused because another execution holds the run now: stops renewing
   * and aborts `signal`, so the run's calls stop and nothing more is written.
   */
  lose(reason: Error): void {
    this.stop();
    this.lost.abort(reason);
  }

  /** Stops renewing (the run has ended, or this execution is giving up). */
  stop(): void {
    clearInterval(this.timer);
  }

  /** Stops renewing and frees the run at once, for a job that is about to be retried. */
  async release(): Promise<void> {
    this.stop();
    await releaseRunLease(this.ds, this.runId, this.owner);
  }

  private async renew(): Promise<void> {
    try {
      if (!(await renewRunLease(this.ds, this.runId, this.owner, this.leaseMs)))
        this.lose(new Error("another delivery of the job took the run over"));
    } catch {
      // Postgres is unreachable: try again on the next tick. If it stays away past the lease,
      // another delivery may take over, and the next renewal tells this one to stop.
    }
  }
}
