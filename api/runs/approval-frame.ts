import type { RunEvent } from "../../shared/queues/run-events";
import type { Frame } from "../reply";
import { now } from "../spine/run-stream";

/**
 * The frame of a run that parked for approval: the stream stays open and goes on once the client
 * approves or rejects (docs/approvals.md), or ends with `run_in_progress` when its wait runs out.
 */
export function approvalFrame(jobId: string, event: Extract<RunEvent, { type: "awaiting_approval" }>): Frame {
  return {
    event: "awaiting_approval",
    data: { job_id: jobId, tool_calls: event.tool_calls, status_url: `/v1/jobs/${jobId}`, timestamp: now() },
  };
}
