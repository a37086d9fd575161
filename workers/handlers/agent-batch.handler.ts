import { loadChildren } from "../../shared/db/run-batch-store";
import { claimRun, completeRun } from "../../shared/db/run-store";
import { roundCost } from "../../shared/llm/pricing";
import type { Handler } from "./handler";

/**
 * E3's parent job: runs once every item has ended (BullMQ holds it until then) and records the
 * batch's outcome. Items keep their own results; the parent holds their order and the totals.
 */
export const handleAgentBatch: Handler<"agent-batch"> = async ({ runId }, { ds, logger, announce }) => {
  const parent = await claimRun(ds, runId);
  if (!parent) return { runId };
  const children = await loadChildren(ds, runId);
  const totals = { input_tokens: 0, output_tokens: 0, total_tokens: 0, total_cost: 0 };
  for (const child of children) {
    const usage = (child.usage ?? {}) as Partial<typeof totals>;
    totals.input_tokens += usage.input_tokens ?? 0;
    totals.output_tokens += usage.output_tokens ?? 0;
    totals.total_tokens += usage.total_tokens ?? 0;
    totals.total_cost += usage.total_cost ?? 0;
  }
  totals.total_cost = roundCost(totals.total_cost);
  const succeeded = children.filter((c) => c.status === "succeeded").length;
  announce(await completeRun(ds, runId, { items: children.map((c) => c.job_id), succeeded, failed: children.length - succeeded }, totals));
  logger.info({ runId, items: children.length, succeeded }, "agent batch finished");
  return { runId };
};
