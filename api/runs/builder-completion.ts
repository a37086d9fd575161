import type { KeyOwner } from "../../shared/auth/api-keys";
import { DEFAULT_MAX_TOKENS } from "../../shared/contracts/agent-defaults";
import type { AgentGenerateRequest, AutoSwarmBuilderRequest } from "../../shared/contracts/auto-swarm-builder";
import { outputTokensFor } from "../../shared/llm/model-catalog";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { completeRun, type CompletionKind } from "./complete-run";
import { presentAgentGenerate, presentAutoSwarmBuilder } from "../../shared/runs/presenters/builder.presenter";
import type { RunHooks } from "./ready-agents";
import { effectiveBudget } from "./run-budget";
import { assertModelServable } from "./run-models";
import type { StreamFormat } from "../spine/run-stream";
import type { Prefer } from "../spine/prefer";

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

/** A builder request as validated: `max_tokens` is left out when the client sends none. */
type BuilderBody<R> = Omit<R, "max_tokens" | "stream"> & { max_tokens?: number | null };

/** The auto swarm builder's hosted default `max_tokens` (auto-generate's is the agents' default, 8192). */
const AUTO_SWARM_BUILDER_MAX_TOKENS = 8000;

/**
 * A builder request made ready: its model servable (400 naming `model_name`), never streamed, the
 * budget filled in, and an output limit: the client's, else `defaultMaxTokens` or the model's
 * smaller limit (a default the provider refuses would fail the run).
 */
function prepared<B extends BuilderBody<AgentGenerateRequest>>(body: B, owner: KeyOwner, defaultMaxTokens: number) {
  assertModelServable(body.model_name, "model_name");
  return {
    ...body,
    max_tokens: body.max_tokens ?? outputTokensFor(body.model_name, defaultMaxTokens),
    stream: false as const,
    budget: effectiveBudget(body.budget, owner.tier),
  };
}

/** `POST /v1/auto-swarm-builder/completions`, stored as an `auto_swarm_builder` run. */
const autoSwarmBuilderCompletion: CompletionKind<
  AutoSwarmBuilderRequest,
  "auto_swarm_builder",
  BuilderBody<AutoSwarmBuilderRequest>
> = {
  kind: "auto_swarm_builder",
  prepare: (body, owner) => prepared(body, owner, AUTO_SWARM_BUILDER_MAX_TOKENS),
  ...builderSteps,
  present: presentAutoSwarmBuilder,
};

/** `POST /v1/agents/auto-generate`, stored as an `agent_generate` run. */
const agentGenerateCompletion: CompletionKind<
  AgentGenerateRequest,
  "agent_generate",
  BuilderBody<AgentGenerateRequest>
> = {
  kind: "agent_generate",
  prepare: (body, owner) => prepared(body, owner, DEFAULT_MAX_TOKENS),
  ...builderSteps,
  present: presentAgentGenerate,
};

/**
 * The auto swarm builder: checks the model, stores and queues the run (limits, budget, billing,
 * idempotency and async mode as for every run), and answers with the design rendered by `execution_type`.
 */
export function completeAutoSwarmBuilder(
  deps: ApiDeps,
  body: BuilderBody<AutoSwarmBuilderRequest>,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, autoSwarmBuilderCompletion, body, owner, prefer, hooks);
}

/** `POST /v1/agents/auto-generate`: as the builder, for one agent. */
export function completeAgentGenerate(
  deps: ApiDeps,
  body: BuilderBody<AgentGenerateRequest>,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, agentGenerateCompletion, body, owner, prefer, hooks);
}
