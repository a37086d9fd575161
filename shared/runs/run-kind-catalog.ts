import type { QueueName } from "../queues/queue-names";

/**
 * How the steps (LLM and tool calls) of a run are known beforehand, by the rules of
 * `shared/swarms/planned-steps.ts`: an agent's turn, a swarm's fixed schedule, a workflow's grid,
 * one call (a chat completion's);
 * `unplanned` when the model's own choices decide them.
 */
export type PlannedStepsRule = "agent" | "swarm" | "workflow" | "one_call" | "unplanned";

/**
 * What one kind of run is, as the API, the workers and Bull Board read it. The kind is stored in
 * `runs.kind` and the job name in Redis: neither is ever renamed (docs/architecture.md, "Adding a
 * run kind", lists the files a new kind touches).
 */
export interface RunKindRecord<Kind extends string = RunKind> {
  /** The BullMQ job that executes its runs; two kinds may share one (a launch is a launch). */
  job: string;
  /** The queue of that job, so the worker that runs it. */
  queue: QueueName;
  /**
   * Its job's run keeps a launch key sealed in Redis until the job ends (the creator's key signs on
   * the worker, and is destroyed with the job, so such a run is never retried by an operator).
   */
  launchKey?: true;
  /**
   * Its runs take steps of their own (LLM and tool calls, recorded in `run_steps`, shown as
   * progress), and how many is known beforehand; null for a kind that makes no call itself (a
   * batch parent waits for its items, a launch signs a transaction).
   */
  steps: PlannedStepsRule | null;
  /** A batch parent's item kind: the parent finishes once its items have ended, and answers from them. */
  childKind?: Kind;
  /** The `/v1` paths whose POST starts it (empty for the kinds the platform starts on its own routes). */
  paths: readonly `/v1/${string}`[];
}

/** Every kind of run, keyed by its stored name. */
const RECORDS = {
  agent: { job: "agent-run", queue: "agent", steps: "agent", paths: ["/v1/agent/completions"] },
  /** One model call passed to the provider as an OpenAI client wrote it (`/v1/chat/completions`). */
  chat_completion: {
    job: "chat-completion",
    queue: "agent",
    steps: "one_call",
    paths: ["/v1/chat/completions"],
  },
  /** One model call for OpenAI's Responses API (`/v1/responses`), executed as a chat completion's. */
  response: { job: "response", queue: "agent", steps: "one_call", paths: ["/v1/responses"] },
  swarm: { job: "swarm-run", queue: "swarm", steps: "swarm", paths: ["/v1/swarm/completions"] },
  swarm_batch: {
    job: "swarm-batch",
    queue: "swarm",
    steps: null,
    childKind: "swarm",
    paths: ["/v1/swarm/batch/completions"],
  },
  agent_batch: {
    job: "agent-batch",
    queue: "agent",
    steps: null,
    childKind: "agent",
    paths: ["/v1/agent/batch/completions"],
  },
  /** A marketplace listing's token launch, started on the platform (`/api`). */
  token_launch: { job: "token-launch", queue: "chain", launchKey: true, steps: null, paths: [] },
  /** A marketplace prompt's token launch, started on the platform (`/api`). */
  prompt_tokenize: { job: "token-launch", queue: "chain", launchKey: true, steps: null, paths: [] },
  reasoning_agent: {
    job: "reasoning-agent-run",
    queue: "swarm",
    steps: "unplanned",
    paths: ["/v1/reasoning-agent/completions"],
  },
  graph_workflow: {
    job: "graph-workflow",
    queue: "swarm",
    steps: "workflow",
    paths: ["/v1/graph-workflow/completions"],
  },
  batched_grid_workflow: {
    job: "batched-grid-workflow",
    queue: "swarm",
    steps: "workflow",
    paths: ["/v1/batched-grid-workflow/completions"],
  },
  auto_swarm_builder: {
    job: "auto-swarm-builder",
    queue: "swarm",
    steps: "unplanned",
    paths: ["/v1/auto-swarm-builder/completions"],
  },
  agent_generate: { job: "agent-generate", queue: "agent", steps: "unplanned", paths: ["/v1/agents/auto-generate"] },
  advanced_research: {
    job: "advanced-research",
    queue: "swarm",
    steps: "unplanned",
    paths: ["/v1/advanced-research/completions"],
  },
  advanced_research_batch: {
    job: "advanced-research-batch",
    queue: "swarm",
    steps: null,
    childKind: "advanced_research",
    paths: ["/v1/advanced-research/batch/completions"],
  },
  /** OpenAI's embeddings: one call to the embedding model, billed per input token. */
  embedding: { job: "embedding", queue: "agent", steps: "unplanned", paths: ["/v1/embeddings"] },
} as const satisfies Record<string, RunKindRecord<string>>;

type Records = typeof RECORDS;

/** A run's kind, as `runs.kind` stores it. */
export type RunKind = keyof Records;

/** One record per kind of run (typed so that a batch's `childKind` must be a kind). */
export const RUN_KIND_CATALOG: Readonly<Record<RunKind, RunKindRecord>> = RECORDS;

/** Every kind of run, in catalog order. */
export const RUN_KINDS = Object.keys(RECORDS) as RunKind[];

/** The job that executes runs of `Kind`. */
export type JobOf<Kind extends RunKind> = Records[Kind]["job"];

/** The name of a BullMQ job: every kind's job. */
export type JobName = JobOf<RunKind>;

/** The job names whose runs keep a launch key in Redis until the job ends. */
export type LaunchKeyJob = { [K in RunKind]: Records[K] extends { launchKey: true } ? JobOf<K> : never }[RunKind];

/** The item kind of a batch parent kind (never for a kind that is no batch). */
export type ChildKindOf<Kind extends RunKind> = Records[Kind] extends { childKind: infer C extends RunKind }
  ? C
  : never;

/** The batch parent kinds: the ones with an item kind. */
export type BatchKindName = { [K in RunKind]: [ChildKindOf<K>] extends [never] ? never : K }[RunKind];

/** The kinds whose runs take steps of their own: the ones a worker executes itself, making LLM and tool calls. */
export type SteppedKind = { [K in RunKind]: Records[K]["steps"] extends null ? never : K }[RunKind];

/** The job that executes runs of `kind`. */
export function jobOf<Kind extends RunKind>(kind: Kind): JobOf<Kind> {
  return RECORDS[kind].job;
}

/** Whether runs of `kind` take steps of their own (see `RunKindRecord.steps`). */
export function takesOwnSteps(kind: RunKind): boolean {
  return RUN_KIND_CATALOG[kind].steps !== null;
}

/** Whether `kind` is a batch parent, answered from its items. */
export function hasChildren(kind: RunKind): boolean {
  return RUN_KIND_CATALOG[kind].childKind !== undefined;
}

/**
 * The paths whose POST starts runs: each counts against the account's daily spend ceiling and its
 * cap of open requests (`api/routes/v1/index.ts`), and a router declares its run routes from these.
 */
export const RUN_PATHS: ReadonlySet<string> = new Set(RUN_KINDS.flatMap((kind) => RUN_KIND_CATALOG[kind].paths));

/** A path whose POST starts runs of some kind. */
export type RunPath = Records[RunKind]["paths"][number];
