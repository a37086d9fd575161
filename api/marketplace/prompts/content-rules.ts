import type { PromptContent } from "./prompt-fields";
import type { ContentScore } from "./content-score";
import { UNSAFE_PATTERNS } from "./unsafe-patterns";

/** A letter or digit repeated this many times in a row is padding, not content (separators and indentation are fine). */
const RUN_LENGTH = 12;
/** With at least this many words, fewer distinct words than this share means repetition. */
const MIN_WORDS_FOR_RATIO = 8;
const MIN_DISTINCT_RATIO = 0.3;

function repetitionProblem(text: string): string | null {
  if (new RegExp(`([\\p{L}\\p{N}])\\1{${RUN_LENGTH - 1},}`, "u").test(text))
    return "it repeats one character over and over";
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  if (words.length >= MIN_WORDS_FOR_RATIO && new Set(words).size / words.length < MIN_DISTINCT_RATIO)
    return "it repeats the same words over and over";
  if ((text.match(/\p{L}/gu) ?? []).length < 3) return "it has almost no words";
  return null;
}

/** Quality by substance: a longer prompt, a real description and several use cases score higher. */
function substance(content: PromptContent): { quality: number; notes: string[] } {
  const length = content.prompt.trim().length;
  let quality = length < 20 ? 4 : length < 80 ? 6 : 7;
  const notes = length < 20 ? ["the prompt is very short"] : [];
  if (content.description.trim().length >= 20) quality += 1;
  else notes.push("a description of at least 20 characters helps buyers");
  if (content.useCases.length >= 2) quality += 1;
  return { quality: Math.min(quality, 10), notes };
}

/**
 * The cheap first look at a listing (length, repetition, unsafe patterns), repeatable and
 * offline. It is the whole score when no scoring model is configured, and a gate before the
 * model otherwise.
 */
export function scoreByRules(content: PromptContent): ContentScore {
  const text = [
    content.name,
    content.prompt,
    content.description,
    ...content.useCases.flatMap((u) => [u.title, u.description]),
  ].join("\n");
  const unsafe = UNSAFE_PATTERNS.find((p) => p.pattern.test(text));
  if (unsafe) return { quality: 0, safety: 0, feedback: `The content looks like ${unsafe.reason}.`, scoredBy: "rules" };
  const repeated = repetitionProblem(content.prompt);
  if (repeated)
    return { quality: 1, safety: 10, feedback: `The prompt is low quality: ${repeated}.`, scoredBy: "rules" };
  const { quality, notes } = substance(content);
  return {
    quality,
    safety: 10,
    feedback: notes.length ? `Accepted; ${notes.join("; ")}.` : "Accepted.",
    scoredBy: "rules",
  };
}
