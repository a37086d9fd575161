import type { PendingApproval } from "../../approvals/approval-gates";

/** What a parked run's job read shows of the calls it waits on: never the steps' keys. */
export function presentPendingApproval(pending: PendingApproval): Record<string, unknown> {
  return {
    since: pending.since,
    tool_calls: pending.tool_calls.map((call) => ({
      id: call.id,
      agent_name: call.agent_name,
      name: call.name,
      arguments: call.arguments,
    })),
  };
}
