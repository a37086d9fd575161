import { setMaxListeners } from "node:events";
import { hostname } from "node:os";
import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from "bullmq";
import type { DataSource } from "typeorm";
import type { Run } from "../shared/db/entities/run.entity";
import { config } from "../shared/config";
import { logger, safeRequestId, withLogContext } from "../shared/logger";
import { CancelListener } from "../shared/queues/cancellation";
import { discardJobSecrets, isFinalAttempt } from "../shared/queues/job-secrets";
import { createRedis } from "../shared/queues/redis";
import { agreeOnShardLayout } from "../shared/queues/shard-layout";
import { fairWeight } from "../shared/queues/fair-priority";
import type { JobDescription } from "../shared/queues/job-description";
import { jobOutcome, outcomeLogLine } from "../shared/queues/job-outcome";
import { announceRunDone } from "../shared/queues/run-notices";
import { shardPrefixes } from "../shared/queues/shards";
import { countAbandonedRun, failAbandonedRun } from "./abandoned-runs";
import type { QueueName } from "../shared/queues/queue-names";
import { jobNamesOf, type RunJobResult } from "../shared/queues/registry";
import type { JobName } from "../shared/runs/run-kind-catalog";
import type { Handler, HandlerTable } from "./handlers/handler";
import { RunLeasedError } from "./handlers/run-lease";
import { RunParkedError } from "./handlers/run-parking";
import { asAccount } from "./agents/llm-account";
import { CoalescedJobReport } from "./coalesced-job-report";
import { MemoryCeiling } from "./memory-ceiling";
import { providerLimiter } from "../shared/llm/provider-limits/provider-limiter";
import { parseTraceparent } from "../shared/tracing/traceparent";

export interface WorkerPool {
  workers: Worker[];
  /** This process's name in BullMQ: every job it takes records it as `processedBy`. */
  name: string;
  /** Whether the workers take no new jobs because memory is above `WORKER_MAX_RSS_MB` (they are alive). */
  heldForMemory(): boolean;
  /**
   * Takes no more jobs and lets the active ones finish for up to `drainMs` (unlimited when not
   * given); jobs still running then are stopped and handed back to their queue, then the
   * connections close.
   */
  close(drainMs?: number): Promise<void>;
}

/** Throws unless every job name of every given queue has a handler. */
export function assertHandlersFor(queues: QueueName[], handlers: HandlerTable): void {
  const missing = queues.flatMap(jobNamesOf).filter((name) => typeof handlers[name] !== "function");
  if (missing.length) throw new Error(`No handler for job name(s): ${missing.join(", ")}`);
}

/**
 * Host and process id: with several worker processes, operators (Bull Board's "processed by", the
 * `workers started` log line) can tell which one ran a job.
 */
function workerName(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * Jobs each shard's worker of a queue holds at once: the process's concurrency for the queue
 * shared out over the shards (at least one each), so a process holds about as many jobs as with
 * one shard. Accounts spread evenly over the shards by hash, so each shard's share of the work is
 * about even, and a busy account is served by every worker process's share of its shard.
 */
export function shardConcurrency(concurrency: number, shard: number, shards: number): number {
  const even = Math.floor(concurrency / shards);
  return Math.max(1, even + (shard < concurrency % shards ? 1 : 0));
}

/**
 * One BullMQ worker per queue and account shard (`shards.ts`): BullMQ's worker takes jobs from one
 * queue under one prefix, and a cluster keeps each shard on its own slot. Handlers fail runs for
 * their own reasons; a job only fails (and is retried) for infrastructure trouble or a crash, and a
 * job out of attempts marks its run failed.
 */
export async function startWorkers(queues: QueueName[], handlers: HandlerTable, ds: DataSource): Promise<WorkerPool> {
  assertHandlersFor(queues, handlers);
  const redis = createRedis("blocking");
  await agreeOnShardLayout(redis); // before a job is taken from this process's layout
  const cancels = new CancelListener(createRedis("blocking"));
  await cancels.start();
  const shutdown = new AbortController();
  /** Abandoned runs being failed (`failAbandonedRun`), which `close` lets finish. */
  const abandoning = new Set<Promise<unknown>>();
  const name = workerName();
  // Every LLM call of every concurrent job listens on this one signal.
  setMaxListeners(0, shutdown.signal);
  const prefixes = shardPrefixes();
  const shardsOf = (queue: QueueName) => prefixes.map((prefix, shard) => ({ queue, prefix, shard }));
  const workers = queues.flatMap(shardsOf).map(({ queue, prefix, shard }) => {
    const worker = new Worker<unknown, RunJobResult, string>(
      queue,
      async (job: Job, token?: string) => {
        // The job's name picks its handler; its producer wrote the payload for that name.
        const handler = handlers[job.name as JobName] as Handler<JobName> | undefined;
        if (!handler) throw new Error(`No handler for job '${job.name}'`);
        const log = logger.child({ queue, jobId: job.id, job: job.name, attempt: job.attemptsMade + 1 });
        let announced = false;
        let ended: Run | null = null;
        const runId = (job.data as { runId?: string }).runId ?? String(job.id);
        const announce = (row: Run | null) => {
          announced = true;
          ended = row;
          announceRunDone(redis, runId, row);
        };
        const finalAttempt = isFinalAttempt(job);
        const report = new CoalescedJobReport(redis, job);
        let result: RunJobResult;
        try {
          // Every line of this job names its run and the request that made it (never trusted beyond logging).
          const requestId = safeRequestId((job.data as { requestId?: unknown }).requestId);
          // Its LLM calls wait in its account's line for the process's slots (`llm-slots.ts`).
          const about = job.data as Partial<JobDescription>;
          const account = { id: String(about.account ?? ""), weight: fairWeight(about.tier) };
          result = await withLogContext({ runId, ...(requestId ? { reqId: requestId } : {}) }, () =>
            asAccount(account, () =>
              handler(job.data, {
                ds,
                logger: log,
                signal: shutdown.signal,
                cancels,
                redis,
                announce,
                finalAttempt,
                job: report,
                tracedFrom: parseTraceparent((job.data as { traceparent?: unknown }).traceparent),
              }),
            ),
          );
        } catch (err) {
          // Whatever becomes of the job now, it keeps no return value: its steps are written.
          await report.close();
          if (shutdown.signal.aborted) await handBack(job, token, log, err);
          if (err instanceof RunLeasedError) {
            // Delivered again while another execution still holds the run: look again once its
            // lease could have run out, without using up one of the job's attempts.
            log.info({ runId, retryInMs: err.retryInMs }, "run held by another delivery; job delayed");
            await job.moveToDelayed(Date.now() + err.retryInMs, token);
            throw new DelayedError();
          }
          if (err instanceof RunParkedError) {
            // The run waits for its client's decision holding no worker slot: its job waits delayed
            // until the run's deadline, and a decision promotes it (approve, reject).
            log.info({ runId, until: new Date(err.untilMs).toISOString() }, "run awaits approval; job delayed");
            await job.moveToDelayed(err.untilMs, token);
            // A decision made before the job was delayed could not promote it: it is promoted here.
            if (!(await err.stillParked())) await job.promote();
            throw new DelayedError();
          }
          if (finalAttempt) await discardJobSecrets(redis, job).catch(() => undefined);
          throw err;
        }
        // Before the job counts as done: a failed discard fails the attempt, and the retry (which
        // finds the run finished) discards again.
        await discardJobSecrets(redis, job).catch(async (err) => {
          await report.close();
          throw err;
        });
        if (!announced) announceRunDone(redis, result.runId);
        // The job ends the way its run did, and says how (Bull Board): with the final row the
        // handler wrote, or the one a delivery found already ended.
        const outcome = ended ? { ...result, ...jobOutcome(ended) } : result;
        // A failed run fails its job too, with the run's error as its reason (Bull Board's failed
        // list), and it is never retried: the run row is final (an operator's retry re-opens it first).
        if (outcome.status === "failed") {
          await report.close([outcomeLogLine(outcome)]);
          throw new UnrecoverableError(outcome.error ?? "The run failed");
        }
        return { ...outcome, ...(await report.resultFields()) };
      },
      {
        connection: createRedis("blocking"),
        prefix,
        name,
        concurrency: shardConcurrency(config.queue.concurrency[queue], shard, prefixes.length),
        lockDuration: config.queue.lockMs,
        stalledInterval: config.queue.stalledIntervalMs,
        maxStalledCount: 2,
      },
    );
    worker.on("failed", (job, err) => {
      if (!job) return;
      const attempts = job.opts.attempts ?? 1;
      logger.warn({ queue, jobId: job.id, attempt: job.attemptsMade, err: err.message }, "job attempt failed");
      // A job that stalled too often fails here without its processor's own clean-up.
      if (job.attemptsMade >= attempts)
        discardJobSecrets(redis, job).catch((e) =>
          logger.error({ err: e, jobId: job.id }, "could not discard job secrets"),
        );
      if (job.attemptsMade >= attempts && typeof (job.data as { runId?: unknown })?.runId === "string") {
        const runId = (job.data as { runId: string }).runId;
        const failing = failAbandonedRun(ds, runId, shutdown.signal)
          .then((row) => {
            if (!row) return;
            // Out of attempts (crashes, stalls, a lost Postgres): the service's failure, for the alerts.
            logger.error({ queue, jobId: job.id, runId }, "run abandoned after its last attempt");
            countAbandonedRun(row);
            // Waiting API processes learn of it from this notice (they read no BullMQ events).
            return announceRunDone(redis, runId, row);
          })
          .catch((e) => logger.error({ err: e, jobId: job.id }, "could not mark abandoned run failed"))
          .finally(() => abandoning.delete(failing));
        abandoning.add(failing);
      }
    });
    worker.on("error", (err) => logger.error({ queue, err: err.message }, "worker error"));
    return worker;
  });
  // The job concurrency is high (runs mostly wait on the LLM); memory is what bounds the jobs held.
  const ceiling = new MemoryCeiling(workers, { maxRssMb: config.queue.maxRssMb });
  ceiling.start();
  return {
    workers,
    name,
    heldForMemory: () => ceiling.holding,
    async close(drainMs = Number.POSITIVE_INFINITY) {
      // BullMQ's close stops fetching and waits for the jobs in hand. Handlers see the abort only
      // once the drain period is over; each then stops and its job goes back to the queue.
      ceiling.stop();
      const drained = Promise.all(workers.map((w) => w.close()));
      if (!(await settlesWithin(drained, drainMs))) {
        logger.warn({ drainMs }, "jobs still running after the drain period: handing them back to their queues");
        shutdown.abort(new Error("the worker is shutting down"));
        await drained;
      }
      shutdown.abort();
      // Abandoned runs still waited for are failed now (see failAbandonedRun), before Redis and Postgres go.
      await Promise.allSettled(abandoning);
      await cancels.close();
      await providerLimiter.close();
      redis.disconnect();
    },
  };
}

/**
 * Puts a job the shutdown interrupted back at the head of its queue for another worker, without
 * counting a failed attempt (a job out of attempts would fail its run). Throws BullMQ's
 * `WaitingError` so the worker leaves the job where it now is. If Redis cannot be reached, the
 * job stays active and BullMQ's stalled-job check hands it over once its lock runs out.
 */
async function handBack(job: Job, token: string | undefined, log: typeof logger, cause: unknown): Promise<never> {
  try {
    await job.moveToWait(token);
    log.info(
      { cause: cause instanceof Error ? cause.message : String(cause) },
      "job handed back to the queue at shutdown",
    );
  } catch (err) {
    log.warn(
      { err: err instanceof Error ? err.message : err },
      "job could not be handed back at shutdown; its lock will run out",
    );
  }
  throw new WaitingError();
}

/** Whether `work` settles within `ms` (always, for an infinite `ms`). */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  if (!Number.isFinite(ms)) {
    await work;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
