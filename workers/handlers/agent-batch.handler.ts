import { finishBatch } from "./batch-parent";
import type { Handler } from "./handler";

/** An agent batch's parent job: records the batch once every item has ended. */
export const handleAgentBatch: Handler<"agent-batch"> = ({ runId }, ctx) =>
  finishBatch(runId, ctx, (child) => (child.kind === "agent" ? child.usage : null) ?? {});
