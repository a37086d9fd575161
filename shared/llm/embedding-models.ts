/**
 * The embedding models this deployment knows, with the size of their vectors as their provider
 * documents it and whether a request may shorten them (`dimensions`, OpenAI's text-embedding-3
 * models only). An embeddings request names one of these; a chat model is refused there, and an
 * embedding model is refused as an agent's model.
 */
export interface EmbeddingModel {
  /** Numbers in each vector the model returns. */
  dimensions: number;
  /** Whether the model takes `dimensions` (a shorter vector). */
  shortens: boolean;
}

const EMBEDDING_MODELS: Readonly<Record<string, EmbeddingModel>> = {
  "text-embedding-3-small": { dimensions: 1_536, shortens: true },
  "text-embedding-3-large": { dimensions: 3_072, shortens: true },
  "text-embedding-ada-002": { dimensions: 1_536, shortens: false },
};

/** The embedding model ids, in listing order (listed by `GET /v1/models` with the chat models). */
export const EMBEDDING_MODEL_IDS: readonly string[] = Object.keys(EMBEDDING_MODELS);

/**
 * The embedding model `model` names (a routing prefix such as `openai/` is taken off), or
 * undefined when it names none.
 */
export function embeddingModel(model: string): EmbeddingModel | undefined {
  const name = model.trim().toLowerCase();
  const bare = name.slice(name.lastIndexOf("/") + 1);
  return Object.hasOwn(EMBEDDING_MODELS, bare) ? EMBEDDING_MODELS[bare] : undefined;
}
