import { EntitySchema } from "typeorm";
import type { AgentCompletionRequest, AgentRunOutput, AgentUsage, StoredBudget } from "../../contracts/agent-spec";
import type {
  AgentGenerateOutput,
  AgentGenerateRequest,
  AutoSwarmBuilderOutput,
  AutoSwarmBuilderRequest,
  BuilderUsage,
} from "../../contracts/auto-swarm-builder";
import type {
  AdvancedResearchBatchParent,
  AdvancedResearchOutput,
  AdvancedResearchRequest,
  AdvancedResearchUsage,
} from "../../contracts/advanced-research";
import type { AgentBatchParent, BatchOutput, BatchTotals, SwarmBatchParent } from "../../contracts/batch";
import type { SwarmRequest, SwarmRunOutput, SwarmUsage } from "../../contracts/swarm-request";
import type { ReasoningRequest, ReasoningRunOutput } from "../../contracts/reasoning-request";
import type { PromptTokenizeRunRequest, TokenLaunchOutput, TokenLaunchRunRequest } from "../../contracts/token-launch";
import type { StoredSecret } from "../../secrets/run-secrets";
import type { AgentOutcome } from "../../contracts/agent-outcome";
import type {
  BatchedGridWorkflowOutput,
  BatchedGridWorkflowRequest,
  GraphWorkflowOutput,
  GraphWorkflowRequest,
} from "../../contracts/workflows";

export const RUN_KINDS = [
  "swarm",
  "agent",
  "swarm_batch",
  "agent_batch",
  "token_launch",
  "prompt_tokenize",
  "reasoning_agent",
  "graph_workflow",
  "batched_grid_workflow",
  "auto_swarm_builder",
  "agent_generate",
  "advanced_research",
  "advanced_research_batch",
] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export type RunStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** Why a run failed, safe to show its client; some failures add details (e.g. the agent at fault). */
export interface RunError {
  message: string;
  code: string;
  [detail: string]: unknown;
}

/**
 * How an attempt of a run ended before an operator retried it (Bull Board's Retry re-opens a
 * failed run): one entry per retry, oldest first, in `runs.retries`.
 */
interface RunRetry {
  /** When the operator retried the run (ISO 8601). */
  retried_at: string;
  status: RunStatus;
  error: RunError | null;
  /** What the attempt had spent (its steps stay in `run_steps` and replay in the next attempt). */
  usage: unknown;
  /** Its agents' outcomes (see `AgentOutcome`). */
  agents: AgentOutcome[] | null;
  started_at: string | null;
  finished_at: string | null;
  execution_time: number | null;
}

/** A request as a run stores it: the API has filled its budget with the caller's shared ceilings. */
type Stored<Request extends { budget?: unknown }> = Omit<Request, "budget"> & { budget?: StoredBudget };

/**
 * One unit of work a client asked for; the source of truth for its state and result. `output` is
 * set once the run succeeded, `error` once it failed; `usage` when it spent something.
 */
interface RunRecord<Kind extends RunKind, Request, Output, Usage> {
  id: string;
  job_id: string;
  kind: Kind;
  parent_id: string | null;
  /** A batch item's position in its batch's request. */
  item_index: number | null;
  api_key_id: string | null;
  user_id: string | null;
  status: RunStatus;
  request: Request;
  /** Secrets withheld from `request`, sealed to this run (see `shared/secrets/run-secrets.ts`); never shown. */
  sealed_secrets: StoredSecret[] | null;
  output: Output | null;
  usage: Usage | null;
  error: RunError | null;
  /** Each agent's part, for a run that failed, was cancelled or stopped at its budget; null otherwise. */
  agents: AgentOutcome[] | null;
  service_tier: string;
  /** Deliveries of its job that claimed the run (a crashed worker's retry counts, as does an operator's retry). */
  attempts: number;
  /** How each attempt before an operator's retry ended (see `RunRetry`). */
  retries: RunRetry[];
  /** The execution holding the run (see `claimRunLease`), and until when. */
  lease_owner: string | null;
  lease_until: Date | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  execution_time: number | null;
}

/** An agent completion (and an agent batch item): one agent. */
export type AgentRun = RunRecord<"agent", Stored<AgentCompletionRequest>, AgentRunOutput, AgentUsage>;
/** A swarm completion (and a swarm batch item): one swarm. */
export type SwarmRun = RunRecord<"swarm", Stored<SwarmRequest>, SwarmRunOutput, SwarmUsage>;
/** An agent batch's parent: finishes once its agent items have ended. */
export type AgentBatchRun = RunRecord<"agent_batch", AgentBatchParent, BatchOutput, BatchTotals>;
/** A swarm batch's parent: finishes once its swarm items have ended. */
type SwarmBatchRun = RunRecord<"swarm_batch", SwarmBatchParent, BatchOutput, BatchTotals>;
/** A listing's token launch (launches are not billed as usage). */
type TokenLaunchRun = RunRecord<"token_launch", TokenLaunchRunRequest, TokenLaunchOutput, never>;
/** A marketplace prompt's token launch (on creation or edit). */
type PromptTokenizeRun = RunRecord<"prompt_tokenize", PromptTokenizeRunRequest, TokenLaunchOutput, never>;

/** `POST /v1/auto-swarm-builder/completions`: a swarm designed by the Builder. */
export type AutoSwarmBuilderRun = RunRecord<
  "auto_swarm_builder",
  Stored<AutoSwarmBuilderRequest>,
  AutoSwarmBuilderOutput,
  BuilderUsage
>;
/** `POST /v1/agents/auto-generate`: one agent designed by the Builder. */
export type AgentGenerateRun = RunRecord<
  "agent_generate",
  Stored<AgentGenerateRequest>,
  AgentGenerateOutput,
  BuilderUsage
>;
/** `POST /v1/graph-workflow/completions`: agents as the nodes of a directed acyclic graph. */
export type GraphWorkflowRun = RunRecord<
  "graph_workflow",
  Stored<GraphWorkflowRequest>,
  GraphWorkflowOutput,
  SwarmUsage
>;
/** `POST /v1/batched-grid-workflow/completions`: every agent on every task. */
export type BatchedGridWorkflowRun = RunRecord<
  "batched_grid_workflow",
  Stored<BatchedGridWorkflowRequest>,
  BatchedGridWorkflowOutput,
  SwarmUsage
>;
/** `POST /v1/reasoning-agent/completions`: one reasoning agent (its usage priced as a swarm's). */
export type ReasoningAgentRun = RunRecord<"reasoning_agent", Stored<ReasoningRequest>, ReasoningRunOutput, SwarmUsage>;
/** `POST /v1/advanced-research/completions` (and a batch item): a director and parallel web researchers. */
export type AdvancedResearchRun = RunRecord<
  "advanced_research",
  Stored<AdvancedResearchRequest>,
  AdvancedResearchOutput,
  AdvancedResearchUsage
>;
/** `POST /v1/advanced-research/batch/completions`'s parent: finishes once its sessions have ended. */
type AdvancedResearchBatchRun = RunRecord<
  "advanced_research_batch",
  AdvancedResearchBatchParent,
  BatchOutput,
  BatchTotals
>;

/** A run row, typed by its `kind`: narrow on `kind` to reach its request, output and usage. */
export type Run =
  | AgentRun
  | SwarmRun
  | AgentBatchRun
  | SwarmBatchRun
  | TokenLaunchRun
  | PromptTokenizeRun
  | AutoSwarmBuilderRun
  | AgentGenerateRun
  | GraphWorkflowRun
  | BatchedGridWorkflowRun
  | ReasoningAgentRun
  | AdvancedResearchRun
  | AdvancedResearchBatchRun;
/** The run of one kind. */
export type RunOfKind<Kind extends RunKind> = Extract<Run, { kind: Kind }>;

/** A type guard for runs of one kind (e.g. to filter a batch's children). */
export function isRunOfKind<Kind extends RunKind>(kind: Kind): (run: Run) => run is RunOfKind<Kind> {
  return (run): run is RunOfKind<Kind> => run.kind === kind;
}

export const RunEntity = new EntitySchema<Run>({
  name: "Run",
  tableName: "runs",
  columns: {
    id: { type: "uuid", primary: true },
    job_id: { type: "text", unique: true },
    kind: { type: "text" },
    parent_id: { type: "uuid", nullable: true },
    item_index: { type: "int", nullable: true },
    api_key_id: { type: "uuid", nullable: true },
    user_id: { type: "uuid", nullable: true },
    status: { type: "text" },
    request: { type: "jsonb" },
    sealed_secrets: { type: "jsonb", nullable: true },
    output: { type: "jsonb", nullable: true },
    usage: { type: "jsonb", nullable: true },
    error: { type: "jsonb", nullable: true },
    agents: { type: "jsonb", nullable: true },
    service_tier: { type: "text", default: "standard" },
    attempts: { type: "int", default: 0 },
    retries: { type: "jsonb", default: () => "'[]'" },
    lease_owner: { type: "uuid", nullable: true },
    lease_until: { type: "timestamptz", nullable: true },
    queued_at: { type: "timestamptz" },
    started_at: { type: "timestamptz", nullable: true },
    finished_at: { type: "timestamptz", nullable: true },
    execution_time: { type: "double precision", nullable: true },
  },
});
