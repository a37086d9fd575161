import { config, type Config } from "../../shared/config";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { everyAgent } from "../../shared/contracts/agent-tree";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { AppError } from "../../shared/errors";
import { embeddingModel } from "../../shared/llm/embedding-models";
import { MODEL_CATALOG } from "../../shared/llm/model-catalog";
import { resolveModel } from "../../shared/llm/providers";
import { swarmTypeRecord } from "../../shared/swarms/swarm-catalog";

/** A model a run may call, and where the request names it. */
interface NamedModel {
  model: string;
  where: string;
}

/** The 400 `resolveModel` gives for the first model that cannot be served, naming where it comes from. */
function assertServable(models: NamedModel[]): void {
  for (const { model, where } of models) {
    // An embedding model answers vectors, never a turn: an agent on one would fail at its first call.
    if (embeddingModel(model))
      throw new AppError(
        400,
        "NOT_A_CHAT_MODEL",
        `${where}: '${model}' is an embedding model (POST /v1/embeddings), not a chat model`,
      );
    try {
      resolveModel(model);
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.status, err.code, `${where}: ${err.message}`, err.extra);
      throw err;
    }
  }
}

function agentModels(specs: AgentSpec[], where?: (i: number) => string): NamedModel[] {
  return everyAgent(specs, where).map((agent) => ({
    model: agent.spec.model_name,
    where: `${agent.where}.model_name`,
  }));
}

/** A model a request names directly (`where`, e.g. `model_name`): servable, else the 400 the worker would fail the run with. */
export function assertModelServable(model: string, where: string): void {
  assertServable([{ model, where }]);
}

/**
 * Agent completions and agent batches: every model an agent run may call (the agents', and their handoffs' at any depth)
 * can be served, else the 400 the worker would fail the run with, before anything is stored.
 */
export function assertAgentModelsServable(specs: AgentSpec[], where: (i: number) => string): void {
  assertServable(agentModels(specs, where));
}

/**
 * Swarm completions and swarm batches: every model a swarm run may call can be served: its agents' (handoffs included),
 * its type's model fields (HeavySwarm's), and the default model built-in agents use when there are no agents.
 */
export function assertSwarmModelsServable(request: SwarmRequest): void {
  const models = agentModels(request.agents ?? []);
  const record = swarmTypeRecord(request.swarm_type);
  for (const field of record?.modelFields ?? []) {
    if (request[field]) models.push({ model: request[field], where: field });
  }
  if (!request.agents?.length && record?.defaultModelWithoutAgents) {
    models.push({
      model: config.llm.defaultModel,
      where: `${request.swarm_type} without agents (its built-in agents use DEFAULT_MODEL)`,
    });
  }
  assertServable(models);
}

/** One catalogue model and whether the current configuration can serve it. */
export interface ModelAvailability {
  id: string;
  provider: string;
  available: boolean;
}

/** The catalogue, each model marked available when the provider registry resolves it (a key or gateway is set). */
export function modelAvailability(cfg: Config = config): ModelAvailability[] {
  return MODEL_CATALOG.map(({ id, provider }) => {
    let available = true;
    try {
      resolveModel(id, cfg);
    } catch {
      available = false;
    }
    return { id, provider, available };
  });
}

/**
 * `GET /v1/models/available`: `models` holds the ids usable now, as plain strings (what hosted-API
 * clients expect); `details` lists the whole catalogue with each model's provider and availability.
 */
export function availableModels(cfg: Config = config): {
  success: true;
  models: string[];
  count: number;
  details: ModelAvailability[];
} {
  const details = modelAvailability(cfg);
  const models = details.filter((m) => m.available).map((m) => m.id);
  return { success: true, models, count: models.length, details };
}
