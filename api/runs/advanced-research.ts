import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AdvancedResearchRequest } from "../../shared/contracts/advanced-research";
import { BadRequestError } from "../../shared/errors";
import { offeredBuiltinTools } from "../../shared/tools/builtin-tools";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { completeRun, type CompletionKind } from "./complete-run";
import { presentAdvancedResearch } from "../../shared/runs/presenters/advanced-research.presenter";
import type { RunHooks } from "./ready-agents";
import { imageUrls } from "./request-egress";
import { effectiveBudget } from "./run-budget";
import { assertModelServable } from "./run-models";
import type { Prefer } from "../spine/prefer";
import { neverStreams } from "./workflow-stream";

const MODEL_FIELDS = ["director_model_name", "worker_model_name"] as const;

/**
 * The 400s of a session before anything is stored: research needs the web search this deployment
 * may not offer, and both of its models must be servable. `at` says where the session sits.
 */
export function prepareResearch(body: AdvancedResearchRequest, owner: KeyOwner, at = ""): AdvancedResearchRequest {
  if (!offeredBuiltinTools().includes("auto_search"))
    throw new BadRequestError(
      "Advanced research searches the web, and this deployment has no search provider (GET /v1/tools/available lists no auto_search)",
      {},
      "TOOL_NOT_AVAILABLE",
    );
  for (const field of MODEL_FIELDS) assertModelServable(body.config[field], `${at}config.${field}`);
  // Research answers once: there is no stream of it.
  return { ...body, stream: false, budget: effectiveBudget(body.budget, owner.tier) };
}

/** One session, stored as an `advanced_research` run on the swarm queue. */
const advancedResearch: CompletionKind<AdvancedResearchRequest, "advanced_research"> = {
  kind: "advanced_research",
  prepare: (body, owner) => prepareResearch(body, owner),
  // No client agents: the director and researchers are the service's; only the image is a URL to check.
  agentsOf: (request) => ({ specs: [], images: imageUrls(request) }),
  withAgents: (request) => request,
  withholdSecrets: (request) => ({ request, secrets: [] }),
  streamFormat: neverStreams, // research answers once
  present: presentAdvancedResearch,
};

/** `POST /v1/advanced-research/completions`: runs a session and answers when it ends (202 with `Prefer: respond-async`). */
export function completeAdvancedResearch(
  deps: ApiDeps,
  body: AdvancedResearchRequest,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, advancedResearch, body, owner, prefer, hooks);
}
