import type OpenAI from "openai";
import {
  APPROVAL_ROLE,
  rejectionText,
  type ApprovalDecision,
  type PendingToolCall,
} from "../../shared/approvals/approval-gates";
import type { StepRecorder } from "./step-recorder";

type ToolCall = OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;

/**
 * Thrown by an agent whose model asked for tools its `requires_approval` gates, with no decision
 * stored yet: the run parks (run-lifecycle.ts) until its client approves or rejects the calls.
 */
export class ApprovalPendingError extends Error {
  constructor(readonly calls: PendingToolCall[]) {
    super(`The run waits for approval of ${calls.map((c) => c.name).join(", ")}`);
    this.name = "ApprovalPendingError";
  }
}

/**
 * The gated calls of one tool round still waiting for a decision. A call's decision is the first
 * step of its lane, stored by the client's approve or reject: a lane whose first step is stored
 * has one.
 */
export function callsAwaitingDecision(
  agentName: string,
  calls: ToolCall[],
  lanes: StepRecorder[],
  gated: (tool: string) => boolean,
): PendingToolCall[] {
  return calls.flatMap((call, i) =>
    gated(call.function.name) && !lanes[i].willReplay()
      ? [
          {
            id: call.id,
            agent_name: agentName,
            name: call.function.name,
            arguments: call.function.arguments,
            step_key: lanes[i].nextKey(),
          },
        ]
      : [],
  );
}

/**
 * Runs a gated call as its decision says: the tool through `run` when approved, else the reason
 * the model reads instead of a result. The decision is replayed from its step (it is stored by
 * then: `callsAwaitingDecision` found it).
 */
export async function decidedCall(
  agentName: string,
  call: ToolCall,
  lane: StepRecorder,
  run: () => Promise<string>,
): Promise<string> {
  const { name: tool, arguments: args } = call.function;
  const step = await lane.step(
    { agentName, role: APPROVAL_ROLE, model: `approval:${tool}`, input: { tool, arguments: args } },
    () => Promise.reject(new ApprovalPendingError([])), // never made: the decision is stored
  );
  const decision = step.output as ApprovalDecision;
  return decision.approved ? run() : rejectionText(tool, decision.reason);
}
