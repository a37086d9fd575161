import type { KeyOwner } from "../../shared/auth/api-keys";
import type { EmbeddingRunRequest } from "../../shared/contracts/embedding-run";
import { AppError } from "../../shared/errors";
import { embeddingModel, type EmbeddingModel } from "../../shared/llm/embedding-models";
import { countEmbeddingTokens } from "../../shared/llm/embedding-tokens";
import { providerOfModel, resolveModel } from "../../shared/llm/providers";
import { MAX_EMBEDDING_INPUT_TOKENS, MAX_EMBEDDING_REQUEST_TOKENS } from "../schemas/embedding.schema";
import { effectiveBudget } from "./run-budget";

/** The body as the schema leaves it. */
export interface EmbeddingBody {
  model: string;
  input: EmbeddingRunRequest["input"];
  encoding_format?: "float" | "base64";
  dimensions?: number;
  user?: string;
}

const invalid = (message: string, param: string) => new AppError(400, "INVALID_VALUE", message, { param });

/**
 * The embedding model the request names, servable here: a chat model (a name a chat provider's
 * rules take) is a 400 naming `model`, any other name OpenAI's 404 `model_not_found`, as is an
 * embedding model whose provider has no key.
 */
function servableEmbeddingModel(model: string): EmbeddingModel {
  const known = embeddingModel(model);
  if (!known && providerOfModel(model) !== null)
    throw invalid(`'${model}' is a chat model, not an embedding model: POST /v1/chat/completions takes it`, "model");
  const notFound = (why: string) =>
    new AppError(404, "MODEL_NOT_FOUND", `The model '${model}' does not exist or cannot be served here: ${why}`, {
      param: "model",
    });
  if (!known) throw notFound("it is not an embedding model (GET /v1/models lists them)");
  try {
    resolveModel(model);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    throw notFound(err.message);
  }
  return known;
}

/** Each input's place in the request, for the refusal that names it. */
function inputs(input: EmbeddingBody["input"]): { value: string | number[]; param: string }[] {
  if (typeof input === "string") return [{ value: input, param: "input" }];
  if (input.length && typeof input[0] === "number") return [{ value: input as number[], param: "input" }];
  return (input as (string | number[])[]).map((value, i) => ({ value, param: `input[${i}]` }));
}

/**
 * The input's tokens, every input within OpenAI's bounds (8,192 tokens each, 300,000 in all),
 * else a 400 naming the input over its bound. A token list counts its ids.
 */
function countedTokens(input: EmbeddingBody["input"]): number {
  let total = 0;
  for (const { value, param } of inputs(input)) {
    const left = MAX_EMBEDDING_REQUEST_TOKENS - total;
    const limit = Math.min(MAX_EMBEDDING_INPUT_TOKENS, left);
    const tokens = typeof value === "string" ? countEmbeddingTokens(value, limit) : value.length;
    if (tokens > MAX_EMBEDDING_INPUT_TOKENS)
      throw invalid(
        `${param} is over ${MAX_EMBEDDING_INPUT_TOKENS} tokens, the most one input may have: split it`,
        param,
      );
    total += tokens;
    if (total > MAX_EMBEDDING_REQUEST_TOKENS)
      throw invalid(
        `The inputs are over ${MAX_EMBEDDING_REQUEST_TOKENS} tokens in all, the most one request may have (at ${param}): send them in several requests`,
        "input",
      );
  }
  return total;
}

/**
 * The embeddings request checked (every refusal before anything is stored or sent) and made
 * ready to store: the model servable and an embedding model, `dimensions` one the model takes,
 * the input within its bounds and counted, the key's budget filled in.
 */
export function prepareEmbeddingRequest(body: EmbeddingBody, owner: KeyOwner): EmbeddingRunRequest {
  const model = servableEmbeddingModel(body.model);
  if (body.dimensions !== undefined) {
    if (!model.shortens)
      throw invalid(
        `'${body.model}' does not take dimensions: its vectors are always ${model.dimensions} long`,
        "dimensions",
      );
    if (body.dimensions > model.dimensions)
      throw invalid(
        `dimensions must be at most ${model.dimensions}, the size of '${body.model}' vectors`,
        "dimensions",
      );
  }
  return {
    model: body.model,
    input: body.input,
    encoding_format: body.encoding_format ?? "float",
    ...(body.dimensions !== undefined ? { dimensions: body.dimensions } : {}),
    ...(body.user ? { user: body.user } : {}),
    input_tokens: countedTokens(body.input),
    stream: false,
    budget: effectiveBudget(undefined, owner.tier),
  };
}
