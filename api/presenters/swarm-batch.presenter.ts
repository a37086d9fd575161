import type { SwarmRequest, SwarmRunOutput } from "../../shared/contracts/swarm-request";
import type { Run } from "../../shared/db/entities/run.entity";
import { orderedSwarmUsage } from "./swarm-completion.presenter";

/** One E2 slot (CONTRACT.md): the item's result, or its error in its place. */
export type SwarmBatchItem =
  | { status: "success"; job_id: string; swarm_name: string | null; swarm_type: string; result: unknown; usage: unknown; execution_time: number | null }
  | { status: "error"; swarm_name: string | null; detail: string; job_id?: string };

/** An item that ran, as its slot shows it. */
export function presentSwarmItem(child: Run): SwarmBatchItem {
  const request = child.request as SwarmRequest;
  if (child.status !== "succeeded") {
    const error = (child.error ?? {}) as { message?: string };
    return { status: "error", swarm_name: request.name ?? null, detail: error.message ?? `The item ended as ${child.status}`, job_id: child.job_id };
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
