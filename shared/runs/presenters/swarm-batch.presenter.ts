import type { SwarmBatchItem, SwarmBatchParent } from "../../contracts/batch";
import type { SwarmRun } from "../../db/entities/run.entity";
import { orderedSwarmUsage } from "./swarm-completion.presenter";

/** An item that ran, as its slot shows it. */
function presentSwarmItem(child: SwarmRun): SwarmBatchItem {
  const { request, output: stored } = child;
  if (child.status !== "succeeded" || !stored) {
    return {
      status: "error",
      swarm_name: request.name ?? null,
      detail: child.error?.message ?? `The item ended as ${child.status}`,
      job_id: child.job_id,
    };
  }
  return {
    status: "success",
    job_id: child.job_id,
    swarm_name: request.name ?? null,
    swarm_type: stored.swarm_type,
    result: stored.output,
    usage: orderedSwarmUsage(child.usage),
    execution_time: child.execution_time,
  };
}

/** Every swarm batch slot in request order: refused items where they stood, the others from their runs. */
export function batchSlots(parent: SwarmBatchParent, children: SwarmRun[]): SwarmBatchItem[] {
  const refused = new Map((parent.rejected ?? []).map((r) => [r.index, r.item]));
  const ran = children.map(presentSwarmItem);
  let next = 0;
  return Array.from({ length: parent.total_requests ?? ran.length }, (_, index) => refused.get(index) ?? ran[next++]);
}
