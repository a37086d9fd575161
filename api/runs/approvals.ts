import type { PendingToolCall } from "../../shared/approvals/approval-gates";
import { decideParkedRun, type StoredDecision } from "../../shared/db/runs/run-approvals";
import { findRunForUser } from "../../shared/db/runs/run-rows";
import { isUuid } from "../../shared/db/uuid";
import { AppError, NotFoundError, ValidationError } from "../../shared/errors";
import { PUBLIC_STATUS } from "../../shared/runs/presenters/run-status";
import { RUN_KIND_CATALOG } from "../../shared/runs/run-kind-catalog";
import type { ApiDeps } from "../deps";

/** Why a call the client did not name in an approval gets no result. */
const NOT_APPROVED = "it was not among the calls approved";

/** What the client decided: approve (all pending calls, or those named), or reject them all with a reason. */
export type Decision = { approve: true; toolCallIds?: string[] } | { approve: false; reason: string };

/** The answer to a decision. */
export interface DecisionAnswer {
  job_id: string;
  status: "queued";
  tool_calls: { id: string; name: string; approved: boolean }[];
}

const notParked = (jobId: string, status: string) =>
  new AppError(409, "JOB_NOT_AWAITING_APPROVAL", `The job is not awaiting approval (it is ${status})`, {
    job_id: jobId,
  });

function decisionsFor(calls: PendingToolCall[], decision: Decision): StoredDecision[] {
  return calls.map((call) => {
    const approved = decision.approve && (!decision.toolCallIds || decision.toolCallIds.includes(call.id));
    const reason = decision.approve ? NOT_APPROVED : decision.reason;
    return {
      step_key: call.step_key,
      agent_name: call.agent_name,
      tool: call.name,
      arguments: call.arguments,
      decision: approved ? { approved } : { approved, reason },
    };
  });
}

/**
 * `POST /v1/jobs/{job_id}/approve` and `/reject`: decides the tool calls a parked run of the
 * caller's account waits on. The run goes back to `queued` with the decisions stored as its steps
 * in one statement, so of two concurrent decisions one wins and the other gets 409; then its
 * delayed job is promoted, and the worker that takes it replays the run's steps and goes on.
 * 404 for no such run of the account, 409 for one not awaiting approval.
 */
export async function decideJob(
  deps: Pick<ApiDeps, "ds" | "queues">,
  jobId: string,
  userId: string,
  decision: Decision,
): Promise<DecisionAnswer> {
  const run = isUuid(jobId) ? await findRunForUser(deps.ds, jobId, userId) : null;
  if (!run) throw new NotFoundError(`No job '${jobId}' for this API key's account`);
  const pending = run.pending_approval;
  if (run.status !== "awaiting_approval" || !pending) throw notParked(jobId, PUBLIC_STATUS[run.status]);
  const unknown = decision.approve
    ? (decision.toolCallIds ?? []).filter((id) => !pending.tool_calls.some((c) => c.id === id))
    : [];
  if (unknown.length)
    throw new ValidationError([
      {
        loc: ["body", "tool_call_ids"],
        msg: `Not a pending call of this job: ${unknown.join(", ")}`,
        type: "value_error",
      },
    ]);
  const decisions = decisionsFor(pending.tool_calls, decision);
  const won = await decideParkedRun(deps.ds, run.id, pending.since, decisions);
  if (!won) throw notParked(jobId, "decided, cancelled or timed out meanwhile");
  // Delayed since it parked; one not delayed yet is promoted by its worker, which sees the decision.
  const job = await deps.queues.of(run.user_id ?? userId)[RUN_KIND_CATALOG[run.kind].queue].getJob(run.id);
  await job?.promote().catch(() => undefined);
  return {
    job_id: jobId,
    status: "queued",
    tool_calls: decisions.map((d, i) => ({
      id: pending.tool_calls[i].id,
      name: d.tool,
      approved: d.decision.approved,
    })),
  };
}
