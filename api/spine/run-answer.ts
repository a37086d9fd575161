import type { Run, RunKind, RunOfKind } from "../../shared/db/entities/run.entity";
import { AppError } from "../../shared/errors";
import type { ApiDeps } from "../deps";
import { acceptedReply, retryHint, type Outcome } from "../reply";
import { presentStoppedRun } from "../../shared/runs/presenters/stopped-run.presenter";
import { syncWaitMs, type Prefer } from "./prefer";
import { runFrames, type StreamFormat } from "./run-stream";

/**
 * Failures that were the request's own mistake, answered with the 4xx the same mistake gets before
 * queueing (docs/errors.md) rather than a failed run's 500: a model the provider does not have.
 */
const CALLER_FAILURE_STATUS: Readonly<Record<string, number>> = { UNKNOWN_MODEL: 400 };

/** A 504's `Retry-After`: when reading the run with `GET /v1/jobs/{job_id}` is worth a try. */
const RUN_TIMEOUT_RETRY_AFTER_S = 5;

/** What a single run's answer is made from: the run (null when the wait ran out) and how its kind shows it. */
export interface RunToAnswer<K extends RunKind> {
  runId: string;
  /** The run's account, whose shard holds its event stream. */
  accountId: string;
  run: Run | null;
  kind: K;
  /** The run's frames' format when the request streams; absent when it does not. */
  stream?: StreamFormat;
  /** The answer's body, from the succeeded run. */
  present(run: RunOfKind<K>): unknown;
}

/**
 * The answer to a single run's request: its frames when it streams, a 202 when the caller does
 * not wait, else its result once it ended (or the error it ended in: see `assertSucceeded`).
 */
export function answerRun<K extends RunKind>(deps: ApiDeps, answer: RunToAnswer<K>, prefer: Prefer): Outcome {
  const { runId, accountId, run, kind, stream } = answer;
  if (stream) return { stream: runFrames(deps, { runId, accountId }, stream) };
  if (syncWaitMs(prefer) === null) return acceptedReply(runId);
  assertSucceeded(run, runId, kind);
  return { status: 200, body: answer.present(run) };
}

/**
 * Throws the documented error (docs/api.md, "Errors") for a run that did not succeed (or is still going); `kind` is the
 * kind it was submitted as. Each says whether the same request sent again can change it
 * (`x-should-retry`): a run still going, yes (a retry waits for it again); a failed or cancelled
 * one, no (a retry gets the same answer).
 */
export function assertSucceeded<K extends RunKind>(
  run: Run | null,
  runId: string,
  kind: K,
): asserts run is RunOfKind<K> {
  if (!run) {
    throw new AppError(
      504,
      "RUN_TIMEOUT",
      "The run is still in progress; fetch its result later with GET /v1/jobs/{job_id}",
      { job_id: runId },
      { Location: `/v1/jobs/${runId}`, "Retry-After": String(RUN_TIMEOUT_RETRY_AFTER_S), ...retryHint(true) },
    );
  }
  if (run.status === "cancelled")
    throw new AppError(
      409,
      "RUN_CANCELLED",
      "The run was cancelled",
      { job_id: run.job_id, ...presentStoppedRun(run) },
      retryHint(false),
    );
  if (run.status !== "succeeded") {
    // The failure's own code, as the job read gives it; RUN_FAILED only when the run stored none.
    const agent = run.error?.agent;
    throw new AppError(
      CALLER_FAILURE_STATUS[run.error?.code ?? ""] ?? 500,
      run.error?.code ?? "RUN_FAILED",
      run.error?.message ?? "The run failed",
      { job_id: run.job_id, ...(agent ? { agent } : {}), ...presentStoppedRun(run) },
      retryHint(false),
    );
  }
  if (run.kind !== kind) throw new Error(`Run ${runId} is a ${run.kind} run, not ${kind}`);
}
