import { finishBatch } from "./batch-parent";
import type { Handler } from "./handler";

/** A swarm batch's parent job: records the batch once every swarm item has ended. */
export const handleSwarmBatch: Handler<"swarm-batch"> = ({ runId }, ctx) =>
  finishBatch(runId, ctx, (child) => {
    const usage = child.kind === "swarm" ? child.usage : null;
    return { ...usage, total_cost: usage?.billing_info?.total_cost };
  });
