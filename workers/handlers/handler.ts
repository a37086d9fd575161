import type { SpanContext } from "@opentelemetry/api";
import type { RedisClient } from "../../shared/queues/redis";
import type { DataSource } from "typeorm";
import type { Run } from "../../shared/db/entities/run.entity";
import type { Logger } from "../../shared/logger";
import type { CancelListener } from "../../shared/queues/cancellation";
import type { JobProgress } from "../../shared/queues/job-outcome";
import type { JobPayloads, RunJobResult } from "../../shared/queues/registry";
import type { JobName } from "../../shared/runs/run-kind-catalog";

/**
 * What a handler may show on its job's Bull Board entry. Best effort: Redis trouble here never
 * fails or slows the run. Reports may be written later and together (workers/coalesced-job-report.ts).
 */
export interface JobReport {
  progress(progress: JobProgress): void;
  log(line: string): void;
}

/** What every handler gets besides its payload. */
export interface HandlerContext {
  ds: DataSource;
  logger: Logger;
  /**
   * Fires when a shutdown's drain period (`WORKER_DRAIN_MS`) ends with the job still running: the
   * handler stops and throws, and the job goes back to the queue for another worker. It must not
   * mark the run failed for it.
   */
  signal?: AbortSignal;
  /** Per-run cancellation signals, fed by the cancel broadcast. */
  cancels: CancelListener;
  /** For streaming a run's events to the client. */
  redis: RedisClient;
  /** Announces the run's final row to waiting API processes (call right after writing it). */
  announce(row: Run | null): void;
  /** The job's progress and log (absent when a handler is called without a job, as in tests). */
  job?: JobReport;
  /** Whether this is the job's last attempt: an error thrown now fails the job for good. */
  finalAttempt?: boolean;
  /** The request span that queued the job (its valid `traceparent`), which the run's spans continue. */
  tracedFrom?: SpanContext | null;
}

export type Handler<N extends JobName> = (payload: JobPayloads[N], ctx: HandlerContext) => Promise<RunJobResult>;

/** Handlers by job name; a process serving only some queues has only their handlers. */
export type HandlerTable = Partial<{ [N in JobName]: Handler<N> }>;
