import type { RunBudgetRequest } from "./agent-spec";

/**
 * What an embeddings run asks of the model: one call, passed to the provider as the client wrote
 * it (OpenAI's `POST /v1/embeddings` body). `input` is kept as sent: text, texts, token ids, or
 * lists of token ids.
 */
export interface EmbeddingRunRequest {
  /** The model as the client named it (the provider is resolved from it). */
  model: string;
  input: string | string[] | number[] | number[][];
  /** How the answer carries each vector: numbers, or base64 of little-endian float32. */
  encoding_format: "float" | "base64";
  /** A shorter vector, for the models that take one. */
  dimensions?: number;
  /** The client's end user, passed to the provider. */
  user?: string;
  /** The tokens of the input, counted before the run was stored: what its budget is checked with before the call. */
  input_tokens: number;
  /** An embeddings answer is never streamed. */
  stream: false;
  /** The spending limits of the key's tier, set by the service. */
  budget?: RunBudgetRequest;
}

/** What an embeddings run stores in `runs.output`: each input's vector, in input order. */
export interface EmbeddingRunOutput {
  /** Each vector as base64 of its little-endian float32 numbers (exact, and a quarter of JSON numbers' size). */
  embeddings: string[];
  /** The model the provider says answered. */
  model: string;
}

/** An embeddings run's `usage`: its input tokens at the embedding price (an embedding has no output tokens). */
export interface EmbeddingRunUsage {
  input_tokens: number;
  total_tokens: number;
  total_cost: number;
}
