import { createHash } from "node:crypto";

/** One input of an embeddings request: a text, or a list of token ids. */
export type EmbeddingInput = string | number[];

/** A 32-bit generator (mulberry32): fast, and the same numbers from the same seed on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The vector the simulator gives `input` on `model`: deterministic (the same input gives the same
 * vector), distinct for distinct inputs, and of unit length. A shortened vector (`dimensions`) is
 * the model's full vector cut and scaled back to unit length, as OpenAI's text-embedding-3 models
 * shorten theirs.
 */
export function embeddingVector(model: string, input: EmbeddingInput, fullSize: number, size: number): Float32Array {
  const digest = createHash("sha256")
    .update(`${model}\u0000${JSON.stringify(input)}`)
    .digest();
  const next = generator(digest.readUInt32LE(0) ^ digest.readUInt32LE(4));
  const full = Array.from({ length: fullSize }, () => next() * 2 - 1);
  const kept = full.slice(0, size);
  const norm = Math.sqrt(kept.reduce((sum, x) => sum + x * x, 0)) || 1;
  return Float32Array.from(kept, (x) => x / norm);
}

/** A vector as OpenAI's `encoding_format: "base64"` carries it: its float32 numbers, little-endian, in base64. */
export function base64Vector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
  return bytes.toString("base64");
}
