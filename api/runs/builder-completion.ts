import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentGenerateRequest, AutoSwarmBuilderRequest } from "../../shared/contracts/auto-swarm-builder";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { completeRun, type CompletionKind } from "./complete-run";
import { presentAgentGenerate, presentAutoSwarmBuilder } from "./presenters/builder.presenter";
import type { RunHooks } from "./ready-agents";
import { effectiveBudget } from "./run-budget";
import { assertModelServable } from "./run-models";
import type { StreamFormat } from "./run-stream";
import type { Prefer } from "./submit-run";

/** The steps both builder endpoints share: no request agents, nothing secret, never streamed. */
const builderSteps = {
  agentsOf: () => ({ specs: [], images: [] }),
  withAgents: <R>(request: R) => request,
  // The body holds no agents, provider options or headers: nothing to withhold.
  withholdSecrets: <R>(request: R) => ({ request, secrets: [] }),
  streamFormat(): StreamFormat {
    // `prepare` sets `stream: false`, so `completeRun` never asks for frames.
    throw new Error("The builder endpoints answer with one result; they are never streamed");
  },
};

/** A builder request made ready: its model servable (400 naming `model_name`), never streamed, the budget filled in. */
function prepared<R extends { model_name: string; budget?: AutoSwarmBuilderRequest["budget"] }>(
  body: R,
  owner: KeyOwner,
): R & { stream: false } {
  assertModelServable(body.model_name, "model_name");
  return { ...body, stream: false, budget: effectiveBudget(body.budget, owner.tier) };
}

/** `POST /v1/auto-swarm-builder/completions`, stored as an `auto_swarm_builder` run. */
const autoSwarmBuilderCompletion: CompletionKind<AutoSwarmBuilderRequest, "auto_swarm_builder"> = {
  kind: "auto_swarm_builder",
  job: "auto-swarm-builder",
  prepare: prepared,
  ...builderSteps,
  present: presentAutoSwarmBuilder,
};

/** `POST /v1/agents/auto-generate`, stored as an `agent_generate` run. */
const agentGenerateCompletion: CompletionKind<AgentGenerateRequest, "agent_generate"> = {
  kind: "agent_generate",
  job: "agent-generate",
  prepare: prepared,
  ...builderSteps,
  present: presentAgentGenerate,
};

/**
 * The auto swarm builder: checks the model, stores and queues the run (limits, budget, billing,
 * idempotency and async mode as for every run), and answers with the design rendered by `execution_type`.
 */
export function completeAutoSwarmBuilder(
  deps: ApiDeps,
  body: AutoSwarmBuilderRequest,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, autoSwarmBuilderCompletion, body, owner, prefer, hooks);
}

/** `POST /v1/agents/auto-generate`: as the builder, for one agent. */
export function completeAgentGenerate(
  deps: ApiDeps,
  body: AgentGenerateRequest,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, agentGenerateCompletion, body, owner, prefer, hooks);
}
