import type { KeyOwner } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { resolveModel } from "../../shared/llm/providers";
import type { ApiDeps } from "../deps";
import { presentAgentCompletion } from "../presenters/agent-completion.presenter";
import { acceptedReply, type Reply } from "./reply";
import { assertSucceeded, runAndWait } from "./run-service";

/** E5: checks the model is servable, queues the run, and answers when it ends. */
export async function completeAgent(
  deps: ApiDeps,
  request: AgentCompletionRequest,
  owner: KeyOwner,
  prefer: { respondAsync: boolean; waitMs: number | null },
): Promise<Reply> {
  resolveModel(request.agent_config.model_name); // 400 naming the missing key before anything is queued
  const waitMs = prefer.respondAsync ? null : Math.min(prefer.waitMs ?? config.http.syncWaitMs, config.http.syncWaitMs);
  const { runId, run } = await runAndWait(deps, { kind: "agent", job: "agent-run", request, owner }, waitMs);
  if (waitMs === null) return acceptedReply(runId);
  assertSucceeded(run, runId);
  return { status: 200, body: presentAgentCompletion(run) };
}
