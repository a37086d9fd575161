import type { DataSource } from "typeorm";
import type { Logger } from "../../shared/logger";
import type { JobName, JobPayloads, RunJobResult } from "../../shared/queues/registry";

/** What every handler gets besides its payload. */
export interface HandlerContext {
  ds: DataSource;
  logger: Logger;
  /** Aborted when the worker shuts down or the run is cancelled. */
  signal?: AbortSignal;
}

export type Handler<N extends JobName> = (payload: JobPayloads[N], ctx: HandlerContext) => Promise<RunJobResult>;
