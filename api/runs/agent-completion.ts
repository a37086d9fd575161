import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { withholdAgentSecrets } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { agentStreamFormat } from "./agent-stream";
import { completeRun, type CompletionKind } from "./complete-run";
import { presentAgentCompletion } from "../../shared/runs/presenters/agent-completion.presenter";
import type { RunHooks } from "./ready-agents";
import { assertBuiltinToolsOffered } from "./builtin-tools";
import { imageUrls } from "./request-egress";
import { effectiveBudget } from "./run-budget";
import { assertAgentModelsServable } from "./run-models";
import type { Prefer } from "../spine/prefer";

/** An agent completion request made ready to run: streaming decided and the budget filled in for the caller's tier. */
export function prepareAgentRequest(body: AgentCompletionRequest, owner: KeyOwner): AgentCompletionRequest {
  const stream = Boolean(body.stream ?? body.agent_config.streaming_on);
  return { ...body, stream, budget: effectiveBudget(body.budget, owner.tier) };
}

const AGENT_FIELD = () => "agent_config";

/** An agent completion's one agent, stored as an `agent` run. */
const agentCompletion: CompletionKind<AgentCompletionRequest> = {
  kind: "agent",
  prepare(body, owner) {
    assertAgentModelsServable([body.agent_config], AGENT_FIELD); // 400 naming the model (and the key to set)
    assertBuiltinToolsOffered([body], () => "tools_enabled");
    return prepareAgentRequest(body, owner);
  },
  agentsOf: (request) => ({ specs: [request.agent_config], images: imageUrls(request), where: AGENT_FIELD }),
  withAgents: (request, [agent]) => ({ ...request, agent_config: agent }),
  withholdSecrets: withholdAgentSecrets,
  streamFormat: agentStreamFormat,
  present: presentAgentCompletion,
};

/**
 * `POST /v1/agent/completions`: checks the model is servable, applies a marketplace prompt, publishes the agent when asked,
 * queues the run, and answers when it ends (or streams it).
 */
export function completeAgent(
  deps: ApiDeps,
  body: AgentCompletionRequest,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, agentCompletion, body, owner, prefer, hooks);
}
