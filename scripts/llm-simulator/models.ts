import { MODEL_CATALOG } from "../../shared/llm/model-catalog";

/**
 * The models the simulator lists (`GET /v1/models`), each with the most output tokens its provider
 * lets one request ask for; a request for a listed model asking for more output than that is
 * refused as OpenAI refuses it.
 */
const MODELS: Record<string, { maxOutputTokens: number }> = {
  "gpt-4.1": { maxOutputTokens: 32_768 },
  "gpt-4.1-mini": { maxOutputTokens: 32_768 },
  "gpt-4.1-nano": { maxOutputTokens: 32_768 },
  "gpt-4o": { maxOutputTokens: 16_384 },
  "gpt-4o-mini": { maxOutputTokens: 16_384 },
  "gpt-5": { maxOutputTokens: 128_000 },
  "gpt-5-mini": { maxOutputTokens: 128_000 },
  "o4-mini": { maxOutputTokens: 100_000 },
  // An older model whose output limit (4,096) is below the agents' default of 8,192.
  "gpt-3.5-turbo": { maxOutputTokens: 4_096 },
  "claude-sonnet-4-20250514": { maxOutputTokens: 64_000 },
  "claude-opus-4-20250514": { maxOutputTokens: 32_000 },
  "claude-3-5-haiku-20241022": { maxOutputTokens: 8_192 },
};

/**
 * The embedding models the simulator lists and answers `POST /v1/embeddings` for, with the size of
 * their vectors and whether a request may ask for shorter ones (`dimensions`), as OpenAI documents them.
 */
const EMBEDDING_MODELS: Record<string, { dimensions: number; shortens: boolean }> = {
  "text-embedding-3-small": { dimensions: 1_536, shortens: true },
  "text-embedding-3-large": { dimensions: 3_072, shortens: true },
  "text-embedding-ada-002": { dimensions: 1_536, shortens: false },
};

/** The embedding model `id` names, if it is one of the listed ones. */
export function embeddingModelOf(id: string): { dimensions: number; shortens: boolean } | undefined {
  return Object.hasOwn(EMBEDDING_MODELS, id) ? EMBEDDING_MODELS[id] : undefined;
}

// Fixed so the listing is byte-for-byte deterministic.
const CREATED = 1_735_689_600; // 2025-01-01T00:00:00Z

/** A `model` object as OpenAI returns it. */
export function modelObject(id: string) {
  return { id, object: "model", created: CREATED, owned_by: "apiary-simulator" };
}

/** The `GET /v1/models` list body. */
export function modelList() {
  return { object: "list", data: [...Object.keys(MODELS), ...Object.keys(EMBEDDING_MODELS)].map(modelObject) };
}

/**
 * Chat models the simulator answers besides the listed ones: every model Apiary's catalogue
 * documents (`GET /v1/models/available`), so a deployment's own names work against it, and a few
 * real ones still served that tests use for their small output limits.
 */
const KNOWN_CHAT_MODELS = new Set([
  ...Object.keys(MODELS),
  ...MODEL_CATALOG.map((m) => m.id.toLowerCase()),
  "gpt-4-turbo",
  "claude-3-haiku-20240307",
]);

/**
 * Whether the simulator answers chat requests for `model`, as a provider (or a gateway in front of
 * several) does: a known name, with or without routing prefixes (`openai/gpt-4o`,
 * `openrouter/openai/gpt-4o`). A typo (`gtp-4o`) is not one.
 */
export function isKnownChatModel(model: string): boolean {
  for (let name = model.trim().toLowerCase(); ; name = name.slice(name.indexOf("/") + 1)) {
    if (KNOWN_CHAT_MODELS.has(name)) return true;
    if (!name.includes("/")) return false;
  }
}

/** Whether `id` is one of the listed models. */
export function isListedModel(id: string): boolean {
  return Object.hasOwn(MODELS, id) || Object.hasOwn(EMBEDDING_MODELS, id);
}

/**
 * OpenAI's refusal of an output cap above the model's limit (`max_tokens is too large: …`), for a
 * listed model; undefined when the request's cap fits or the model is not listed.
 */
export function outputCapProblem(request: {
  model: string;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
}): { message: string; param: string } | undefined {
  if (!Object.hasOwn(MODELS, request.model)) return undefined;
  const limit = MODELS[request.model].maxOutputTokens;
  for (const param of ["max_completion_tokens", "max_tokens"] as const) {
    const asked = request[param];
    if (typeof asked === "number" && asked > limit)
      return {
        message: `${param} is too large: ${asked}. This model supports at most ${limit} completion tokens, whereas you provided ${asked}.`,
        param,
      };
  }
  return undefined;
}
