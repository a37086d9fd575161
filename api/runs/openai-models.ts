import { config, type Config } from "../../shared/config";
import { AppError } from "../../shared/errors";
import { MODEL_CATALOG } from "../../shared/llm/model-catalog";
import { resolveModel } from "../../shared/llm/providers";
import { modelAvailability } from "./run-models";

/** When this process began serving its models: OpenAI's `created`, which the catalogue has no date for. */
const SERVING_SINCE = Math.floor(Date.now() / 1_000);

/** One model in OpenAI's shape. */
function openAiModel(id: string, provider: string) {
  return { id, object: "model", created: SERVING_SINCE, owned_by: provider };
}

/** `GET /v1/models`: the catalogue models this deployment can call now (as `GET /v1/models/available`), in OpenAI's list shape. */
export function openAiModelList(cfg: Config = config) {
  const data = modelAvailability(cfg)
    .filter((m) => m.available)
    .map((m) => openAiModel(m.id, m.provider));
  return { object: "list", data };
}

/**
 * `GET /v1/models/{model}`: any model this deployment can call, listed or not (a provider serves
 * more than the catalogue names), as chat completions accept it; otherwise OpenAI's 404.
 */
export function openAiModelById(id: string, cfg: Config = config) {
  try {
    const resolved = resolveModel(id, cfg);
    return openAiModel(id, MODEL_CATALOG.find((m) => m.id === id)?.provider ?? resolved.provider);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    throw new AppError(404, "MODEL_NOT_FOUND", `The model '${id}' does not exist: ${err.message}`, { param: "model" });
  }
}
