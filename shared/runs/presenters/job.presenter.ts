import { isRunOfKind, type Run, type RunKind, type RunOfKind } from "../../db/entities/run.entity";
import { RUN_KIND_CATALOG, type ChildKindOf } from "../../runs/run-kind-catalog";
import { presentAdvancedResearch } from "./advanced-research.presenter";
import { presentAgentBatch } from "./agent-batch.presenter";
import { presentAgentCompletion } from "./agent-completion.presenter";
import { presentChatCompletion } from "./chat-completion.presenter";
import { presentResponse } from "./response.presenter";
import { presentAgentGenerate, presentAutoSwarmBuilder } from "./builder.presenter";
import { batchSlots } from "./swarm-batch.presenter";
import { presentSwarmCompletion } from "./swarm-completion.presenter";
import { presentBatchedGridWorkflow, presentGraphWorkflow } from "./workflow.presenter";
import { presentReasoningCompletion } from "./reasoning-completion.presenter";
import { presentEmbeddings } from "./embedding.presenter";
import { PUBLIC_STATUS } from "./run-status";
import { presentPendingApproval } from "./pending-approval.presenter";
import { presentStoppedRun } from "./stopped-run.presenter";
import { presentAttempts } from "./run-attempts.presenter";

/** A succeeded run's stored answer, from its row and (for a batch) its items in item order. */
type SuccessPresenter<K extends RunKind> = (run: RunOfKind<K>, items: RunOfKind<ChildKindOf<K>>[]) => object;

/** Said of a kind whose runs have no answer of their own to store: its job shows the run's state. */
const NO_STORED_ANSWER = null;

/**
 * Per kind of run: how `GET /v1/jobs/{job_id}` shows a succeeded run, as its endpoint answered it.
 * A token launch has no stored answer: its platform route answers from the launch's row.
 */
const SUCCESS_PRESENTERS: { [K in RunKind]: SuccessPresenter<K> | typeof NO_STORED_ANSWER } = {
  agent: presentAgentCompletion,
  agent_batch: presentAgentBatch,
  chat_completion: presentChatCompletion,
  response: presentResponse,
  swarm: presentSwarmCompletion,
  swarm_batch: (run, items) => ({ job_id: run.job_id, results: batchSlots(run.request, items) }),
  auto_swarm_builder: presentAutoSwarmBuilder,
  agent_generate: presentAgentGenerate,
  graph_workflow: presentGraphWorkflow,
  batched_grid_workflow: presentBatchedGridWorkflow,
  reasoning_agent: presentReasoningCompletion,
  advanced_research: presentAdvancedResearch,
  advanced_research_batch: (run, items) => ({ job_id: run.job_id, results: items.map(presentAdvancedResearch) }),
  embedding: presentEmbeddings,
  token_launch: NO_STORED_ANSWER,
  prompt_tokenize: NO_STORED_ANSWER,
};

/** The stored response of a succeeded run, for the kinds that have one (a batch's from its items). */
function presentSuccess<K extends RunKind>(run: RunOfKind<K>, children: Run[]): Record<string, unknown> | null {
  const present = SUCCESS_PRESENTERS[run.kind as K];
  if (present === NO_STORED_ANSWER) return null;
  const childKind = RUN_KIND_CATALOG[run.kind].childKind;
  const items = childKind ? children.filter(isRunOfKind(childKind)) : [];
  return present(run, items as RunOfKind<ChildKindOf<K>>[]) as Record<string, unknown>;
}

/**
 * `GET /v1/jobs/{job_id}`: the stored response of a finished run, or its state while it runs; a
 * retried run's with its `attempts`.
 */
export function presentJob(run: Run, children: Run[] = []): Record<string, unknown> {
  const attempts = presentAttempts(run);
  const job = presentJobOnly(run, children);
  return attempts ? { ...job, attempts } : job;
}

function presentJobOnly(run: Run, children: Run[]): Record<string, unknown> {
  const status = PUBLIC_STATUS[run.status];
  const success = run.status === "succeeded" ? presentSuccess(run, children) : null;
  // A run its budget wound down keeps the `incomplete` status its answer gave.
  if (success) return { ...success, status: success.status === "incomplete" ? "incomplete" : status };
  const error = run.error;
  return {
    job_id: run.job_id,
    status,
    kind: run.kind,
    queued_at: new Date(run.queued_at).toISOString(),
    started_at: run.started_at ? new Date(run.started_at).toISOString() : null,
    finished_at: run.finished_at ? new Date(run.finished_at).toISOString() : null,
    ...(error ? { detail: error.message, code: error.code, ...(error.agent ? { agent: error.agent } : {}) } : {}),
    ...presentStoppedRun(run),
    ...(run.status === "awaiting_approval" && run.pending_approval
      ? { pending_approval: presentPendingApproval(run.pending_approval) }
      : {}),
  };
}
