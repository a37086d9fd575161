import { roundCost } from "../../llm/pricing";
import type { SwarmUsage } from "../../contracts/swarm-request";
import type { BatchedGridWorkflowRun, GraphWorkflowRun } from "../../db/entities/run.entity";

/** The hosted API's workflow usage, from the swarm usage the run stores. */
function workflowUsage(usage: SwarmUsage | null) {
  const costs = usage?.billing_info?.cost_breakdown;
  return {
    input_tokens: usage?.input_tokens ?? 0,
    output_tokens: usage?.output_tokens ?? 0,
    total_tokens: usage?.total_tokens ?? 0,
    token_cost: roundCost((costs?.input_token_cost ?? 0) + (costs?.output_token_cost ?? 0)),
    cost_per_agent: roundCost(costs?.agent_cost ?? 0),
  };
}

function finishedAt(run: GraphWorkflowRun | BatchedGridWorkflowRun): string {
  return new Date(run.finished_at ?? Date.now()).toISOString();
}

/** The hosted API's GraphWorkflowOutput, from a succeeded `graph_workflow` run. */
export function presentGraphWorkflow(run: GraphWorkflowRun) {
  return {
    job_id: run.job_id,
    name: run.request.name ?? null,
    description: run.request.description ?? null,
    status: "success",
    outputs: run.output?.outputs ?? {},
    usage: workflowUsage(run.usage),
    timestamp: finishedAt(run),
  };
}

/** The hosted API's BatchedGridWorkflowOutput, from a succeeded `batched_grid_workflow` run. */
export function presentBatchedGridWorkflow(run: BatchedGridWorkflowRun) {
  return {
    job_id: run.job_id,
    // The SDK types both as strings: the reference's defaults stand in for what the client left out.
    name: run.request.name || "BatchedGridWorkflow",
    description: run.request.description || "Every agent on every task",
    status: "success",
    outputs: run.output?.outputs ?? [],
    usage: workflowUsage(run.usage),
    timestamp: finishedAt(run),
  };
}
