import type { Run } from "../../shared/db/entities/run.entity";
import { loadChildren } from "../../shared/db/runs/run-batches";
import { whenDatabaseAnswers } from "../../shared/db/outage-wait";
import { completeRun } from "../../shared/db/runs/run-results";
import { claimRun } from "../../shared/db/runs/run-leases";
import { roundCost } from "../../shared/llm/pricing";
import type { RunJobResult } from "../../shared/queues/registry";
import type { HandlerContext } from "./handler";

/** Token counts and cost of one item, whatever its usage object looks like. */
type ItemTotals = (child: Run) => {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  total_cost?: number;
};

/**
 * A batch's parent job (swarm or agent batch): runs once every item has ended (BullMQ holds it until then) and
 * records the batch's outcome. Items keep their own results; the parent holds their order and the
 * totals.
 */
export async function finishBatch(
  runId: string,
  { ds, logger, announce, signal }: HandlerContext,
  totalsOf: ItemTotals,
): Promise<RunJobResult> {
  const durable = <T>(work: () => Promise<T>) => whenDatabaseAnswers(work, { signal });
  // Claimed without a lease (BullMQ runs a parent once its items have ended): its writes pass no owner.
  const parent = await durable(() => claimRun(ds, runId));
  if (!parent) return { runId };
  const children = await durable(() => loadChildren(ds, runId));
  const totals = { input_tokens: 0, output_tokens: 0, total_tokens: 0, total_cost: 0 };
  for (const child of children) {
    const item = totalsOf(child);
    totals.input_tokens += item.input_tokens ?? 0;
    totals.output_tokens += item.output_tokens ?? 0;
    totals.total_tokens += item.total_tokens ?? 0;
    totals.total_cost += item.total_cost ?? 0;
  }
  totals.total_cost = roundCost(totals.total_cost);
  const succeeded = children.filter((c) => c.status === "succeeded").length;
  const output = { items: children.map((c) => c.job_id), succeeded, failed: children.length - succeeded };
  announce(await durable(() => completeRun(ds, runId, output, totals, null)));
  logger.info({ runId, items: children.length, succeeded }, "batch finished");
  return { runId };
}
