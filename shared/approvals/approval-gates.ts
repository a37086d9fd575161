/*
 * Approval gates: an agent's `requires_approval` names tools whose calls wait for the run's client
 * to approve or reject them (docs/approvals.md). The run parks in `awaiting_approval` holding no
 * worker; the client's decision is stored as a step of the run, which the continuation replays.
 */

/** The most tools one agent may gate. */
export const MAX_GATED_TOOLS = 32;

/** The longest reason a rejection may give (the model reads it as the tool's result). */
export const MAX_REJECTION_REASON = 2_000;

/** A step's `role` for a client's decision on a gated call. */
export const APPROVAL_ROLE = "approval";

/** One tool call a parked run waits on, as the job read shows it. */
export interface PendingToolCall {
  /** The model's id for the call (`tool_call_id`), what `approve` may name. */
  id: string;
  agent_name: string;
  /** The tool's name. */
  name: string;
  /** The call's arguments, as the model wrote them (a JSON text). */
  arguments: string;
  /** The key of the step the decision is stored under; never shown. */
  step_key: string;
}

/** What a parked run stores in `runs.pending_approval`. */
export interface PendingApproval {
  /** When the run parked (ISO 8601). */
  since: string;
  tool_calls: PendingToolCall[];
}

/** A client's decision on one gated call, as its step's output stores it. */
export interface ApprovalDecision {
  approved: boolean;
  /** Why it was rejected: the model reads it as the tool's result. */
  reason?: string;
}

/** The tool result the model reads for a rejected call. */
export function rejectionText(tool: string, reason: string | undefined): string {
  return `The call of ${tool} was rejected by the user${reason ? `: ${reason}` : "."} Do not call it again with these arguments; continue without its result.`;
}
