import { encode } from "gpt-tokenizer";

/** Token count of a text, for providers that do not report usage. */
export function countTokens(text: string): number {
  return text ? encode(text).length : 0;
}
