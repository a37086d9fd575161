import type { JobDescription } from "./job-description";
import type { JobOutcome } from "./job-outcome";

/**
 * The one registry of queues and job names. Each job name belongs to exactly one queue, and every
 * payload is a pointer to a Postgres row: results never travel through Redis.
 */
export const QUEUE_NAMES = ["swarm", "agent", "chain"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** A job that executes one stored run. */
interface RunJobPayload {
  runId: string;
  /** The id of the request that made the run, for the worker's log lines only (see `shared/logger`). */
  requestId?: string;
}

/**
 * Token launches (`POST /api/token/launch`): launches a stored token launch. The creator's private key is not in the payload: it waits
 * sealed in a Redis key of its own (`shared/secrets/launch-keys.ts`), destroyed when the job ends.
 */
interface TokenLaunchJobPayload extends RunJobPayload {
  launchId: string;
}

/**
 * Job name → its queue. Workers refuse to start when a name of their queue has no handler.
 * `launchKey` marks the jobs whose run has a launch key waiting in Redis, destroyed once the job has ended.
 */
export const JOBS = {
  "agent-run": { queue: "agent" },
  /** An agent batch's parent: runs once every item (an `agent-run` child) has ended. */
  "agent-batch": { queue: "agent" },
  "swarm-run": { queue: "swarm" },
  /** A swarm batch's parent: runs once every item (a `swarm-run` child) has ended. */
  "swarm-batch": { queue: "swarm" },
  "token-launch": { queue: "chain", launchKey: true },
  /** The auto swarm builder endpoint: the Builder designs a swarm. */
  "auto-swarm-builder": { queue: "swarm" },
  /** `POST /v1/agents/auto-generate`: the Builder designs one agent. */
  "agent-generate": { queue: "agent" },
  "graph-workflow": { queue: "swarm" },
  "batched-grid-workflow": { queue: "swarm" },
  "reasoning-agent-run": { queue: "swarm" },
  "advanced-research": { queue: "swarm" },
  /** The advanced research batch's parent: runs once every session (an `advanced-research` child) has ended. */
  "advanced-research-batch": { queue: "swarm" },
} as const satisfies Record<string, { queue: QueueName; launchKey?: true }>;

export type JobName = keyof typeof JOBS;

/** Payload type of each job name: what the worker reads. */
export interface JobPayloads {
  "agent-run": RunJobPayload;
  "agent-batch": RunJobPayload;
  "swarm-run": RunJobPayload;
  "swarm-batch": RunJobPayload;
  "token-launch": TokenLaunchJobPayload;
  "auto-swarm-builder": RunJobPayload;
  "agent-generate": RunJobPayload;
  "graph-workflow": RunJobPayload;
  "batched-grid-workflow": RunJobPayload;
  "reasoning-agent-run": RunJobPayload;
  "advanced-research": RunJobPayload;
  "advanced-research-batch": RunJobPayload;
}

/**
 * A job's data: its payload, plus what Bull Board shows of the run (`job-description.ts`), which
 * no worker reads.
 */
export type JobData<N extends JobName> = JobPayloads[N] & Partial<JobDescription>;

/**
 * What a finished job returns: a pointer to its run and, once the run has ended, how it ended
 * (`JobOutcome`: status, tokens, cost and the start of the output), for Bull Board. The output
 * itself stays in Postgres.
 */
export interface RunJobResult extends Partial<JobOutcome> {
  runId: string;
}

/** Job names that run on a queue. */
export function jobNamesOf(queue: QueueName): JobName[] {
  return (Object.keys(JOBS) as JobName[]).filter((name) => JOBS[name].queue === queue);
}

/** Whether a job's run keeps a launch key in Redis until the job ends. */
export function keepsLaunchKey(name: string): boolean {
  return (JOBS as Record<string, { launchKey?: true }>)[name]?.launchKey === true;
}

export function isQueueName(value: string): value is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(value);
}
