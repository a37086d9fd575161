import { isRunOfKind, type Run } from "../../../shared/db/entities/run.entity";
import { presentAdvancedResearch } from "./advanced-research.presenter";
import { presentAgentBatch } from "./agent-batch.presenter";
import { presentAgentCompletion } from "./agent-completion.presenter";
import { presentAgentGenerate, presentAutoSwarmBuilder } from "./builder.presenter";
import { batchSlots } from "./swarm-batch.presenter";
import { presentSwarmCompletion } from "./swarm-completion.presenter";
import { presentBatchedGridWorkflow, presentGraphWorkflow } from "./workflow.presenter";
import { presentReasoningCompletion } from "./reasoning-completion.presenter";
import { PUBLIC_STATUS } from "./run-status";
import { presentStoppedRun } from "./stopped-run.presenter";

/** The stored response of a succeeded run, for the kinds that have one (a batch's from its items). */
function presentSuccess(run: Run, children: Run[]): Record<string, unknown> | null {
  switch (run.kind) {
    case "agent":
      return presentAgentCompletion(run);
    case "agent_batch":
      return presentAgentBatch(run, children.filter(isRunOfKind("agent")));
    case "swarm":
      return presentSwarmCompletion(run);
    case "swarm_batch":
      return { job_id: run.job_id, results: batchSlots(run.request, children.filter(isRunOfKind("swarm"))) };
    case "auto_swarm_builder":
      return presentAutoSwarmBuilder(run);
    case "agent_generate":
      return presentAgentGenerate(run);
    case "graph_workflow":
      return presentGraphWorkflow(run);
    case "batched_grid_workflow":
      return presentBatchedGridWorkflow(run);
    case "reasoning_agent":
      return presentReasoningCompletion(run);
    case "advanced_research":
      return presentAdvancedResearch(run);
    case "advanced_research_batch":
      return {
        job_id: run.job_id,
        results: children.filter(isRunOfKind("advanced_research")).map(presentAdvancedResearch),
      };
    default:
      return null;
  }
}

/** Kinds whose stored response includes their child runs. */
export const KINDS_WITH_CHILDREN = new Set<Run["kind"]>(["agent_batch", "swarm_batch", "advanced_research_batch"]);

/** `GET /v1/jobs/{job_id}`: the stored response of a finished run, or its state while it runs. */
export function presentJob(run: Run, children: Run[] = []): Record<string, unknown> {
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
  };
}
