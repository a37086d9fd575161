import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import { tokenPieces } from "./token-pieces";

/** A client's text may hold a special token's spelling (`<|endoftext|>`): it is counted as text, never refused. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The tokens of an embeddings input in cl100k_base, the encoding of OpenAI's embedding models,
 * counted piece by piece (linear in the text, see `tokenPieces`) and no further than `limit`: a
 * count above `limit` says only that the text is over it. A request's bounds are checked with it
 * before anything is stored, so a hostile 10 MB text costs the count of `limit` tokens, not of
 * the whole text.
 */
export function countEmbeddingTokens(text: string, limit: number): number {
  let tokens = 0;
  for (const piece of tokenPieces(text)) {
    tokens += encode(piece, PLAIN_TEXT).length;
    if (tokens > limit) break;
  }
  return tokens;
}
