import type { Run } from "../../db/entities/run.entity";
import { orderedSwarmUsage } from "./swarm-completion.presenter";

/**
 * What a run that failed or was cancelled had done, as its answer and its job read both show it:
 * each agent's outcome (`agents`: succeeded with its answer, failed with why, or skipped) and what
 * it spent (`usage`, in its kind's shape), when the worker stored them.
 */
export function presentStoppedRun(run: Run): { agents?: Run["agents"]; usage?: unknown } {
  const usage = run.usage && "billing_info" in run.usage ? orderedSwarmUsage(run.usage) : run.usage;
  return { ...(run.agents ? { agents: run.agents } : {}), ...(usage ? { usage } : {}) };
}
