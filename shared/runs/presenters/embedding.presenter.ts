import type { EmbeddingRun } from "../../db/entities/run.entity";

/** A stored vector (base64 of little-endian float32) as numbers, for `encoding_format: "float"`. */
function floats(base64: string): number[] {
  const bytes = Buffer.from(base64, "base64");
  const out = new Array<number>(bytes.length >>> 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/**
 * OpenAI's embeddings answer (`{object: "list", data, model, usage}`) from the succeeded run: each
 * vector in the encoding the request asked for, `model` as the client named it, and the run's
 * input tokens.
 */
export function presentEmbeddings(run: EmbeddingRun) {
  const { request, output, usage } = run;
  const base64 = request.encoding_format === "base64";
  const data = (output?.embeddings ?? []).map((vector, index) => ({
    object: "embedding" as const,
    index,
    embedding: base64 ? vector : floats(vector),
  }));
  const tokens = usage?.input_tokens ?? 0;
  return {
    object: "list" as const,
    data,
    model: request.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
