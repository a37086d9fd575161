import type { AgentBatchRun, AgentRun } from "../../db/entities/run.entity";
import { presentAgentCompletion } from "./agent-completion.presenter";

/** One agent batch slot: the item's agent completion response, or `{success: false, error, index}` in its place. */
function presentItem(child: AgentRun, index: number) {
  if (child.status === "succeeded") return presentAgentCompletion(child);
  const error = child.error;
  return {
    success: false,
    error: error?.message ?? `The item ended as ${child.status}`,
    code: error?.code ?? (child.status === "cancelled" ? "RUN_CANCELLED" : "RUN_FAILED"),
    index,
    job_id: child.job_id,
  };
}

/** The agent batch response (docs/api.md, "Batches"): results in request order; a failed item never fails the batch. */
export function presentAgentBatch(parent: AgentBatchRun, children: AgentRun[]) {
  return {
    batch_id: parent.job_id,
    total_requests: children.length,
    results: children.map(presentItem),
    // The parent job runs only after its items, so its own timing says nothing: count from queueing.
    execution_time: parent.finished_at
      ? (new Date(parent.finished_at).getTime() - new Date(parent.queued_at).getTime()) / 1_000
      : null,
    timestamp: (parent.finished_at ? new Date(parent.finished_at) : new Date()).toISOString(),
  };
}
