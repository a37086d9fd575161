import type { KeyOwner } from "../../shared/auth/api-keys";
import type { ReasoningRequest } from "../../shared/contracts/reasoning-request";
import { canonicalReasoningType } from "../../shared/reasoning/reasoning-catalog";
import { withholdLlmArgsSecrets } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { completeRun, type CompletionKind } from "./complete-run";
import { presentReasoningCompletion } from "../../shared/runs/presenters/reasoning-completion.presenter";
import type { RunHooks } from "./ready-agents";
import { effectiveBudget } from "./run-budget";
import { assertModelServable } from "./run-models";
import type { Prefer } from "../spine/prefer";
import { swarmStreamFormat } from "./swarm-stream";

/** The body as the schema leaves it: `swarm_type` is one of the accepted names, unmapped. */
export type ReasoningBody = Omit<ReasoningRequest, "swarm_type" | "requested_swarm_type" | "agent_name"> & {
  swarm_type: string;
  agent_name?: string | null;
  stream?: boolean | null;
};

const DEFAULT_AGENT_NAME = "reasoning-agent";

/** The request made ready to store: the type's canonical name beside the one sent, the name and budget filled in. */
function normaliseReasoningRequest(body: ReasoningBody, owner: KeyOwner): ReasoningRequest {
  const type = canonicalReasoningType(body.swarm_type);
  // The schema only lets accepted names through; a name without a type is a bug, not bad input.
  if (!type) throw new Error(`No reasoning type for ${body.swarm_type}`);
  return {
    ...body,
    agent_name: body.agent_name?.trim() || DEFAULT_AGENT_NAME,
    description: body.description || null,
    system_prompt: body.system_prompt || null,
    num_samples: body.num_samples ?? null,
    memory_capacity: body.memory_capacity ?? null,
    num_knowledge_items: body.num_knowledge_items ?? null,
    swarm_type: type,
    requested_swarm_type: body.swarm_type,
    stream: Boolean(body.stream),
    budget: effectiveBudget(body.budget, owner.tier),
  };
}

/** A reasoning agent, stored as a `reasoning_agent` run; its calls all run on the request's model. */
const reasoningCompletion: CompletionKind<ReasoningRequest, "reasoning_agent", ReasoningBody> = {
  kind: "reasoning_agent",
  prepare(body, owner) {
    const request = normaliseReasoningRequest(body, owner);
    assertModelServable(request.model_name, "model_name");
    return request;
  },
  // No agent specs, MCP servers or images: nothing to publish or to check against the egress policy.
  agentsOf: () => ({ specs: [], images: [] }),
  withAgents: (request) => request,
  withholdSecrets: withholdLlmArgsSecrets,
  streamFormat: (runId, request) =>
    swarmStreamFormat(runId, { name: request.agent_name ?? null, swarm_type: request.swarm_type, agents: null }),
  present: presentReasoningCompletion,
};

/** `POST /v1/reasoning-agent/completions`: queues the reasoning run and answers when it ends. */
export function completeReasoning(
  deps: ApiDeps,
  body: ReasoningBody,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, reasoningCompletion, body, owner, prefer, hooks);
}
