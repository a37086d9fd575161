import type { Run } from "../../../shared/db/entities/run.entity";
import { presentAgentBatch } from "./agent-batch.presenter";
import { presentAgentCompletion } from "./agent-completion.presenter";
import { batchSlots, type SwarmBatchParent } from "./swarm-batch.presenter";
import { presentSwarmCompletion } from "./swarm-completion.presenter";
import { PUBLIC_STATUS } from "./run-status";

const SUCCESS_PRESENTERS: Partial<Record<Run["kind"], (run: Run, children: Run[]) => Record<string, unknown>>> = {
  agent: presentAgentCompletion,
  agent_batch: presentAgentBatch,
  swarm: presentSwarmCompletion,
  swarm_batch: (run, children) => ({
    job_id: run.job_id,
    results: batchSlots(run.request as SwarmBatchParent, children),
  }),
};

/** Kinds whose stored response includes their child runs. */
export const KINDS_WITH_CHILDREN = new Set<Run["kind"]>(["agent_batch", "swarm_batch"]);

/** `GET /v1/jobs/{job_id}`: the stored response of a finished run, or its state while it runs. */
export function presentJob(run: Run, children: Run[] = []): Record<string, unknown> {
  const status = PUBLIC_STATUS[run.status];
  const present = SUCCESS_PRESENTERS[run.kind];
  if (run.status === "succeeded" && present) return { ...present(run, children), status };
  const error = run.error as { message?: string; code?: string } | null;
  return {
    job_id: run.job_id,
    status,
    kind: run.kind,
    queued_at: new Date(run.queued_at).toISOString(),
    started_at: run.started_at ? new Date(run.started_at).toISOString() : null,
    finished_at: run.finished_at ? new Date(run.finished_at).toISOString() : null,
    ...(error ? { detail: error.message, code: error.code } : {}),
    ...(run.usage ? { usage: run.usage } : {}),
  };
}
