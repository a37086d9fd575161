import type { KeyOwner } from "../../shared/auth/api-keys";
import { config } from "../../shared/config";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { resolveModel } from "../../shared/llm/providers";
import type { ApiDeps } from "../deps";
import { presentAgentCompletion } from "../presenters/agent-completion.presenter";
import { acceptedReply, type Reply } from "./reply";
import { assertSucceeded, awaitRun, submitRun } from "./run-service";

/** E5: checks the model is servable, queues the run, and answers when it ends. */
export async function completeAgent(
  deps: ApiDeps,
  request: AgentCompletionRequest,
  owner: KeyOwner,
  prefer: { respondAsync: boolean; waitMs: number | null },
): Promise<Reply> {
  resolveModel(request.agent_config.model_name); // 400 naming the missing key before anything is queued
  const runId = await submitRun(deps, { kind: "agent", job: "agent-run", request, owner });
  if (prefer.respondAsync) return acceptedReply(runId);
  const run = await awaitRun(deps, runId, Math.min(prefer.waitMs ?? config.http.syncWaitMs, config.http.syncWaitMs));
  assertSucceeded(run, runId);
  return { status: 200, body: presentAgentCompletion(run) };
}
