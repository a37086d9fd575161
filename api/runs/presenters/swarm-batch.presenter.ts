import type { SwarmRequest, SwarmRunOutput } from "../../../shared/contracts/swarm-request";
import type { Run } from "../../../shared/db/entities/run.entity";
import { orderedSwarmUsage } from "./swarm-completion.presenter";

/** One E2 slot (CONTRACT.md): the item's result, or its error in its place. */
export type SwarmBatchItem =
  | {
      status: "success";
      job_id: string;
      swarm_name: string | null;
      swarm_type: string;
      result: unknown;
      usage: unknown;
      execution_time: number | null;
    }
  | { status: "error"; swarm_name: string | null; detail: string; job_id?: string };

/** An item that ran, as its slot shows it. */
function presentSwarmItem(child: Run): SwarmBatchItem {
  const request = child.request as SwarmRequest;
  if (child.status !== "succeeded") {
    const error = (child.error ?? {}) as { message?: string };
    return {
      status: "error",
      swarm_name: request.name ?? null,
      detail: error.message ?? `The item ended as ${child.status}`,
      job_id: child.job_id,
    };
  }
  const stored = child.output as SwarmRunOutput;
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

/** What an E2 parent run stores: the item count and the items refused before running, by position. */
export interface SwarmBatchParent {
  total_requests: number;
  rejected: { index: number; item: SwarmBatchItem }[];
}

/** Every E2 slot in request order: refused items where they stood, the others from their runs. */
export function batchSlots(parent: SwarmBatchParent, children: Run[]): SwarmBatchItem[] {
  const refused = new Map((parent.rejected ?? []).map((r) => [r.index, r.item]));
  const ran = children.map(presentSwarmItem);
  let next = 0;
  return Array.from({ length: parent.total_requests ?? ran.length }, (_, index) => refused.get(index) ?? ran[next++]);
}
