import type { ChatRunOutput, ChatRunRequest, ChatRunUsage } from "../../contracts/chat-run";
import type { ResponseRunRequest } from "../../contracts/response-run";
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
import type { EmbeddingRunOutput, EmbeddingRunRequest, EmbeddingRunUsage } from "../../contracts/embedding-run";
import type { AgentBatchParent, BatchOutput, BatchTotals, SwarmBatchParent } from "../../contracts/batch";
import type { SwarmRequest, SwarmRunOutput, SwarmUsage } from "../../contracts/swarm-request";
import type { ReasoningRequest, ReasoningRunOutput } from "../../contracts/reasoning-request";
import type { PromptTokenizeRunRequest, TokenLaunchOutput, TokenLaunchRunRequest } from "../../contracts/token-launch";
import type { PendingApproval } from "../../approvals/approval-gates";
import type { StoredSecret } from "../../secrets/run-secrets";
import type { AgentOutcome } from "../../contracts/agent-outcome";
import type {
  BatchedGridWorkflowOutput,
  BatchedGridWorkflowRequest,
  GraphWorkflowOutput,
  GraphWorkflowRequest,
} from "../../contracts/workflows";

import type { RunKind } from "../../runs/run-kind-catalog";

// Kept importable from here, beside `Run`: most readers of a run's kind read the run too.
export type { RunKind };
export type RunStatus = "queued" | "running" | "awaiting_approval" | "succeeded" | "failed" | "cancelled";

/** Why a run failed, safe to show its client; some failures add details (e.g. the agent at fault). */
export interface RunError {
  message: string;
  code: string;
  [detail: string]: unknown;
}

/** Another model for the agents whose last turn failed, asked by a client's retry. */
export interface RetryModel {
  model_name: string;
  /** The request's agents (by name) that run on it from that attempt on. */
  agents: string[];
}

/**
 * How an attempt of a run ended before it was retried (its client's `POST /v1/jobs/{job_id}/retry`
 * or an operator's Retry in Bull Board re-opens a failed run): one entry per retry, oldest first,
 * in `runs.retries`.
 */
export interface RunRetry {
  /** When the run was retried (ISO 8601). */
  retried_at: string;
  /** Who retried it (entries from before clients could retry have none: an operator). */
  by?: "client" | "operator";
  /** The model the retry gave the agents that had failed, when it gave one. */
  model?: RetryModel | null;
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
  /** The tool calls a run in `awaiting_approval` waits on, and since when (see docs/approvals.md); null otherwise. */
  pending_approval: PendingApproval | null;
  /** Where the run's end is reported (see docs/webhooks.md); null for a run without a webhook. */
  webhook_url: string | null;
  /** Deliveries of its job that claimed the run (a crashed worker's retry counts, as does an operator's retry). */
  attempts: number;
  /** How each attempt before a retry ended (see `RunRetry`). */
  retries: RunRetry[];
  /** The execution holding the run (see `claimRunLease`), and until when. */
  lease_owner: string | null;
  lease_until: Date | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  execution_time: number | null;
}

/**
 * What each kind of run stores: its request (as stored: budget filled in), output and usage. A
 * kind of the catalog (`shared/runs/run-kind-catalog.ts`) without an entry here does not compile.
 */
interface RunShapes {
  /** One agent (`/v1/agent/completions`, and an agent batch's item). */
  agent: { request: Stored<AgentCompletionRequest>; output: AgentRunOutput; usage: AgentUsage };
  /** One model call as an OpenAI client wrote it (`/v1/chat/completions`). */
  chat_completion: { request: Stored<ChatRunRequest>; output: ChatRunOutput; usage: ChatRunUsage };
  /** One model call for OpenAI's Responses API (`/v1/responses`), with the response's settings. */
  response: { request: Stored<ResponseRunRequest>; output: ChatRunOutput; usage: ChatRunUsage };
  /** One swarm (`/v1/swarm/completions`, and a swarm batch's item). */
  swarm: { request: Stored<SwarmRequest>; output: SwarmRunOutput; usage: SwarmUsage };
  /** An agent batch's parent: finishes once its agent items have ended. */
  agent_batch: { request: AgentBatchParent; output: BatchOutput; usage: BatchTotals };
  /** A swarm batch's parent: finishes once its swarm items have ended. */
  swarm_batch: { request: SwarmBatchParent; output: BatchOutput; usage: BatchTotals };
  /** A listing's token launch (launches are not billed as usage). */
  token_launch: { request: TokenLaunchRunRequest; output: TokenLaunchOutput; usage: never };
  /** A marketplace prompt's token launch. */
  prompt_tokenize: { request: PromptTokenizeRunRequest; output: TokenLaunchOutput; usage: never };
  /** A swarm designed by the Builder. */
  auto_swarm_builder: { request: Stored<AutoSwarmBuilderRequest>; output: AutoSwarmBuilderOutput; usage: BuilderUsage };
  /** One agent designed by the Builder. */
  agent_generate: { request: Stored<AgentGenerateRequest>; output: AgentGenerateOutput; usage: BuilderUsage };
  /** Agents as the nodes of a directed acyclic graph. */
  graph_workflow: { request: Stored<GraphWorkflowRequest>; output: GraphWorkflowOutput; usage: SwarmUsage };
  /** Every agent on every task. */
  batched_grid_workflow: {
    request: Stored<BatchedGridWorkflowRequest>;
    output: BatchedGridWorkflowOutput;
    usage: SwarmUsage;
  };
  /** One reasoning agent (its usage priced as a swarm's). */
  reasoning_agent: { request: Stored<ReasoningRequest>; output: ReasoningRunOutput; usage: SwarmUsage };
  /** A director and parallel web researchers (and an advanced research batch's item). */
  advanced_research: {
    request: Stored<AdvancedResearchRequest>;
    output: AdvancedResearchOutput;
    usage: AdvancedResearchUsage;
  };
  /** An advanced research batch's parent: finishes once its sessions have ended. */
  advanced_research_batch: { request: AdvancedResearchBatchParent; output: BatchOutput; usage: BatchTotals };
  /** OpenAI's embeddings (`/v1/embeddings`): one call to an embedding model. */
  embedding: { request: Stored<EmbeddingRunRequest>; output: EmbeddingRunOutput; usage: EmbeddingRunUsage };
}

/** Each kind's run row. */
type RunsByKind = {
  [K in RunKind]: RunRecord<K, RunShapes[K]["request"], RunShapes[K]["output"], RunShapes[K]["usage"]>;
};
/** A run row, typed by its `kind`: narrow on `kind` to reach its request, output and usage. */
export type Run = RunsByKind[RunKind];
/** The run of one kind. */
export type RunOfKind<Kind extends RunKind> = RunsByKind[Kind];

/** An agent run. */
export type AgentRun = RunOfKind<"agent">;
/** A chat-completion run. */
export type ChatCompletionRun = RunOfKind<"chat_completion">;
/** A Responses API run. */
export type ResponseRun = RunOfKind<"response">;
/** A swarm run. */
export type SwarmRun = RunOfKind<"swarm">;
/** An agent batch's parent run. */
export type AgentBatchRun = RunOfKind<"agent_batch">;
/** An auto swarm builder run. */
export type AutoSwarmBuilderRun = RunOfKind<"auto_swarm_builder">;
/** An agent-generating run. */
export type AgentGenerateRun = RunOfKind<"agent_generate">;
/** A graph workflow run. */
export type GraphWorkflowRun = RunOfKind<"graph_workflow">;
/** A batched grid workflow run. */
export type BatchedGridWorkflowRun = RunOfKind<"batched_grid_workflow">;
/** A reasoning agent run. */
export type ReasoningAgentRun = RunOfKind<"reasoning_agent">;
/** An advanced research run. */
export type AdvancedResearchRun = RunOfKind<"advanced_research">;
/** An embeddings run. */
export type EmbeddingRun = RunOfKind<"embedding">;

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
    webhook_url: { type: "text", nullable: true },
    pending_approval: { type: "jsonb", nullable: true },
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
