/**
 * The one registry of queues and job names. Each job name belongs to exactly one queue, and every
 * payload is a pointer to a Postgres row: results never travel through Redis.
 */
export const QUEUE_NAMES = ["swarm", "agent", "chain"] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** A job that executes one stored run. */
export interface RunJobPayload {
  runId: string;
}

/**
 * E6: launches a stored token launch. Carries the creator's private key, sealed (AES-256-GCM with
 * `SECRETS_KEY`), because the key must reach the chain worker and must never be stored in
 * Postgres; the worker scrubs it from the job once the job has ended (see `secretFields`).
 */
export interface TokenLaunchJobPayload extends RunJobPayload {
  launchId: string;
  sealedKey?: string;
}

/**
 * Job name → its queue. Workers refuse to start when a name of their queue has no handler.
 * `secretFields` are payload fields removed from the job in Redis once it has ended.
 */
export const JOBS = {
  "agent-run": { queue: "agent" },
  /** E3's parent: runs once every item (an `agent-run` child) has ended. */
  "agent-batch": { queue: "agent" },
  "swarm-run": { queue: "swarm" },
  /** E2's parent: runs once every item (a `swarm-run` child) has ended. */
  "swarm-batch": { queue: "swarm" },
  "token-launch": { queue: "chain", secretFields: ["sealedKey"] },
} as const satisfies Record<string, { queue: QueueName; secretFields?: readonly string[] }>;

export type JobName = keyof typeof JOBS;

/** Payload type of each job name. */
export interface JobPayloads {
  "agent-run": RunJobPayload;
  "agent-batch": RunJobPayload;
  "swarm-run": RunJobPayload;
  "swarm-batch": RunJobPayload;
  "token-launch": TokenLaunchJobPayload;
}

/** What a finished job returns: a pointer, never the output itself. */
export interface RunJobResult {
  runId: string;
}

/** Job names that run on a queue. */
export function jobNamesOf(queue: QueueName): JobName[] {
  return (Object.keys(JOBS) as JobName[]).filter((name) => JOBS[name].queue === queue);
}

/** Payload fields that must not stay in Redis after the job has ended. */
export function secretFieldsOf(name: string): readonly string[] {
  const job = (JOBS as Record<string, { secretFields?: readonly string[] }>)[name];
  return job?.secretFields ?? [];
}

export function isQueueName(value: string): value is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(value);
}
