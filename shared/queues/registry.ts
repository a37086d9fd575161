import type { JobDescription } from "./job-description";
import type { JobOutcome, JobSteps } from "./job-outcome";

import {
  RUN_KIND_CATALOG,
  RUN_KINDS,
  type JobName,
  type LaunchKeyJob,
  type RunKindRecord,
} from "../runs/run-kind-catalog";
import type { QueueName } from "./queue-names";

/*
 * The queues' view of the run-kind catalog (`shared/runs/run-kind-catalog.ts`): each job name
 * belongs to exactly one queue, and every payload is a pointer to a Postgres row: results never
 * travel through Redis.
 */

/** A job that executes one stored run. */
interface RunJobPayload {
  runId: string;
  /** The id of the request that made the run, for the worker's log lines only (see `shared/logger`). */
  requestId?: string;
  /** The W3C trace context of the request span that queued it, when tracing is on (untrusted: re-validated). */
  traceparent?: string;
}

/**
 * A token launch's job: it names the stored launch. The creator's private key is not in the
 * payload: it waits sealed in a Redis key of its own (`shared/secrets/launch-keys.ts`), destroyed
 * when the job ends.
 */
interface TokenLaunchJobPayload extends RunJobPayload {
  launchId: string;
}

/** Job name → its queue, and whether its run keeps a launch key; from the catalog's kinds. */
export const JOBS: Readonly<Record<JobName, Pick<RunKindRecord, "queue" | "launchKey">>> = Object.fromEntries(
  RUN_KINDS.map((kind) => {
    const { job, queue, launchKey } = RUN_KIND_CATALOG[kind];
    return [job, { queue, launchKey }];
  }),
) as Record<JobName, Pick<RunKindRecord, "queue" | "launchKey">>;

/** Payload type of each job name: what the worker reads. */
export type JobPayloads = { [N in JobName]: N extends LaunchKeyJob ? TokenLaunchJobPayload : RunJobPayload };

/**
 * A job's data: its payload, plus what Bull Board shows of the run (`job-description.ts`), which
 * no worker reads.
 */
export type JobData<N extends JobName> = JobPayloads[N] & Partial<JobDescription>;

/**
 * What a finished job returns: a pointer to its run and, once the run has ended, how it ended
 * (`JobOutcome`: status, tokens, cost and the start of the output), and the steps of a run too
 * short to have written its progress and log (`JobSteps`), for Bull Board. The output itself stays
 * in Postgres.
 */
export interface RunJobResult extends Partial<JobOutcome>, JobSteps {
  runId: string;
}

/** Job names that run on a queue. */
export function jobNamesOf(queue: QueueName): JobName[] {
  return (Object.keys(JOBS) as JobName[]).filter((name) => JOBS[name].queue === queue);
}

/** Whether a job's run keeps a launch key in Redis until the job ends. */
export function keepsLaunchKey(name: string): boolean {
  return Object.hasOwn(JOBS, name) && JOBS[name as JobName].launchKey === true;
}
