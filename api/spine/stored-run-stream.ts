import { config } from "../../shared/config";
import { findRun, isTerminal } from "../../shared/db/runs/run-rows";
import { readRunProgress, type ProgressStep, type RunProgress } from "../../shared/db/runs/run-progress";
import type { RunEvent } from "../../shared/queues/run-events";
import type { ApiDeps } from "../deps";
import type { Frame, FrameStream } from "../reply";
import { eventId, type EventPlace } from "./event-ids";
import { cutShortFrame, endingFromRow, placed, type FollowOptions, type RunOf, type StreamFormat } from "./run-stream";

/** A finished step as a frame: who made which call and what it cost, never its messages. */
function stepFrame(step: ProgressStep): Frame {
  const { agent_name, role, model, input_tokens, output_tokens, cost, finished_at } = step;
  return {
    event: "step",
    data: { agent: agent_name, role, model, input_tokens, output_tokens, cost, finished_at: new Date(finished_at) },
  };
}

/**
 * A run's frames told from Postgres, its stored record: the metadata frame, then each step as it
 * is stored (`run_steps`, in `seq` order, the `n`th as `s<n>.0`), then, once the run's row is
 * final, its ending (`endingFromRow`, numbered on after the steps). This is how a run not streamed
 * through Redis is joined, during and after the run, and how any run is told once its Redis
 * record expired: nothing is written for a reader who may never come. A live run is followed by
 * the process's one `RunProgressPoller`, never by a query per client. While a run goes on, a step
 * is told only once every earlier one is stored (steps are committed in batches, not always in
 * order), so no later poll finds one before a step already told.
 */
export function storedRunFrames(
  deps: ApiDeps,
  { runId }: RunOf,
  format: StreamFormat,
  options: FollowOptions = {},
): FrameStream {
  const after = options.after ?? null;
  return async function* (stop) {
    yield* placed(runId, { data: format.metadata }, { record: "meta" }, after);
    const deadline = Date.now() + (options.followMs ?? config.http.syncWaitMs);
    let told = 0;
    let fromSeq = 0;
    let last: EventPlace = { record: "meta" };
    const tell = function* (frames: Frame[], n: number) {
      for (let k = 0; k < frames.length; k++) {
        last = { record: "stored", n, k };
        yield* placed(runId, frames[k], last, after);
      }
    };
    let progress: RunProgress | null | undefined = (await readRunProgress(deps.ds, [{ runId, fromSeq }])).get(runId);
    while (progress && !stop.aborted) {
      const final = isTerminal(progress.status);
      for (const step of progress.steps) {
        if (!final && step.seq !== fromSeq) break;
        yield* tell([stepFrame(step)], told++);
        fromSeq = step.seq + 1;
      }
      if (final) {
        const run = await findRun(deps.ds, runId);
        if (!run) return;
        const ending: RunEvent[] = endingFromRow(run, format);
        for (let j = 0; j < ending.length; j++) yield* tell(format.framesFor(ending[j]), told + j);
        return;
      }
      if (Date.now() > deadline) {
        const error = `The run is still in progress; fetch it later with GET /v1/jobs/${runId}`;
        yield { ...cutShortFrame(format, runId, error, "run_in_progress"), id: eventId(runId, last) };
        return;
      }
      progress = await deps.runProgress.next(runId, fromSeq, stop);
    }
  };
}
