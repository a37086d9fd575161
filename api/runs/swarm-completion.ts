import type { KeyOwner } from "../../shared/auth/api-keys";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { withholdSwarmSecrets } from "../../shared/secrets/run-secrets";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { completeRun, type CompletionKind } from "./complete-run";
import { presentSwarmCompletion } from "../../shared/runs/presenters/swarm-completion.presenter";
import type { RunHooks } from "./ready-agents";
import { imageUrls } from "./request-egress";
import type { Prefer } from "../spine/prefer";
import { assertSwarmRunnable, normaliseSwarmRequest } from "./swarm-request";
import { swarmStreamFormat } from "./swarm-stream";

/** A swarm completion's swarm, stored as a `swarm` run. */
const swarmCompletion: CompletionKind<SwarmRequest> = {
  kind: "swarm",
  prepare(body, owner) {
    const request = normaliseSwarmRequest(body, owner);
    assertSwarmRunnable(request);
    return request;
  },
  agentsOf: (request) => ({ specs: request.agents ?? [], images: imageUrls(request) }),
  withAgents: (request, agents) => ({ ...request, agents }),
  withholdSecrets: withholdSwarmSecrets,
  serviceTier: (request) => request.service_tier,
  streamFormat: swarmStreamFormat,
  present: presentSwarmCompletion,
};

/**
 * `POST /v1/swarm/completions`: checks the whole-request rules and marketplace prompts (400 before any LLM call), publishes
 * the agents that ask for it, queues the swarm, answers when it ends (or streams it).
 */
export function completeSwarm(
  deps: ApiDeps,
  body: SwarmRequest,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, swarmCompletion, body, owner, prefer, hooks);
}
