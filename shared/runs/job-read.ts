import type { DataSource } from "typeorm";
import type { Run } from "../db/entities/run.entity";
import { loadStepSummaries } from "../db/run-step-store";
import { loadChildren } from "../db/runs/run-batches";
import { hasChildren, takesOwnSteps } from "./run-kind-catalog";
import { presentProgress } from "./presenters/job-progress.presenter";
import { presentJob } from "./presenters/job.presenter";

/**
 * The job read of a stored run, as `GET /v1/jobs/{job_id}` answers it and a webhook delivers it:
 * `presentJob`'s view (a batch's from its items), with the `progress` of one still queued or running.
 */
export async function presentStoredJob(ds: DataSource, run: Run): Promise<Record<string, unknown>> {
  const children = hasChildren(run.kind) && run.status === "succeeded" ? await loadChildren(ds, run.id) : [];
  const going = (run.status === "queued" || run.status === "running") && takesOwnSteps(run.kind);
  if (!going) return presentJob(run, children);
  return { ...presentJob(run), progress: presentProgress(run, await loadStepSummaries(ds, run.id)) };
}
