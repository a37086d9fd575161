import type { StepRecorder } from "../agents/step-recorder";
import type { FinishedCall } from "../agents/step-store";
import type { JobReport } from "./handler";

/**
 * A log value: bare when it is one word of printable ASCII, else quoted as JSON, which also escapes
 * control characters (an agent name is client text and may hold spaces or terminal escapes).
 */
function value(text: string): string {
  return /^[!#-<>-~]+$/.test(text) ? text : JSON.stringify(text);
}

/** The job log line of one finished call: agent, model, tokens (in + out), cost in USD, duration. */
function callLogLine(call: FinishedCall): string {
  const tokens = call.inputTokens + call.outputTokens;
  return [
    `agent=${value(call.agentName)}`,
    `model=${value(call.model)}`,
    `tokens=${tokens}`,
    `cost=${Number(call.cost.toFixed(6))}`,
    `ms=${call.ms}`,
  ].join(" ");
}

/**
 * Shows a run's steps on its job (Bull Board): progress `{done, total?}` moves with every finished
 * step (`total` when the run's schedule fixes it; `done` never passes it) and every call made by
 * this attempt writes a log line (replayed ones were logged by the attempt that made them).
 * Nothing is reported before the first step finishes: the board shows a new job's progress as 0
 * anyway. The report decides when to write (the worker's is workers/coalesced-job-report.ts: a
 * quick run's steps go in its job's return value, a longer one's at most once per window).
 */
export function reportSteps(recorder: StepRecorder, report: JobReport | undefined, total: number | null): void {
  if (!report) return;
  let done = 0;
  const progress = () => report.progress(total === null ? { done } : { done, total: Math.max(total, done) });
  recorder.onCallFinished((call) => {
    done++;
    progress();
    if (!call.replayed) report.log(callLogLine(call));
  });
}
