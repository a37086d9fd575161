import { config, type Config } from "../../shared/config";
import { AppError } from "../../shared/errors";
import { EMBEDDING_MODEL_IDS } from "../../shared/llm/embedding-models";
import { providerOfModel, resolveModel } from "../../shared/llm/providers";
import { modelAvailability } from "./run-models";

/** When this process began serving its models: OpenAI's `created`, which the catalogue has no date for. */
const SERVING_SINCE = Math.floor(Date.now() / 1_000);

/** One model in OpenAI's shape. */
function openAiModel(id: string, provider: string) {
  return { id, object: "model", created: SERVING_SINCE, owned_by: provider };
}

/** The embedding models whose provider this deployment can call now. */
function servableEmbeddingModels(cfg: Config) {
  return EMBEDDING_MODEL_IDS.flatMap((id) => {
    try {
      resolveModel(id, cfg);
    } catch {
      return [];
    }
    return [openAiModel(id, providerOfModel(id) ?? "openai")];
  });
}

/**
 * `GET /v1/models`: the catalogue models this deployment can call now (as `GET /v1/models/available`),
 * then the embedding models it can call (`POST /v1/embeddings`; never agents' models, so not in the
 * Swarms catalogue), in OpenAI's list shape.
 */
export function openAiModelList(cfg: Config = config) {
  const data = modelAvailability(cfg)
    .filter((m) => m.available)
    .map((m) => openAiModel(m.id, m.provider));
  return { object: "list", data: [...data, ...servableEmbeddingModels(cfg)] };
}

/**
 * `GET /v1/models/{model}`: a model of that list, else OpenAI's 404. Chat completions take other
 * ids a provider serves too, but only listed ones are described (an unlisted id could be anything,
 * and with a gateway every id "resolves").
 */
export function openAiModelById(id: string, cfg: Config = config) {
  const found = openAiModelList(cfg).data.find((m) => m.id === id);
  if (found) return found;
  const message = `The model '${id}' is not among the models this deployment lists (GET /v1/models)`;
  throw new AppError(404, "MODEL_NOT_FOUND", message, { param: "model" });
}
