import { PlatformError } from "../../platform-error";
import type { PromptContent } from "./prompt-record";

/** `CONTENT_SCORING_MODEL` and its wait; the model `none` means the rules alone decide. */
export interface ScoringSettings {
  model: string;
  timeoutMs: number;
}

export const RULES_ONLY = "none";

/** A listing's scores (0–10 each) and the reviewer's words. */
export interface ContentScore {
  quality: number;
  safety: number;
  feedback: string;
  /** Who scored: the cheap rules, or the scoring model. */
  scoredBy: "rules" | "model";
}

/** Pass marks (docs/marketplace.md, "What the platform decides"): free content needs 4, paid content 6, in quality and in safety. */
const PASS_MARK = { free: 4, paid: 6 } as const;

/** Throws the content-validation error when a score is under the pass mark: 403 when unsafe, 400 when poor. */
export function assertPasses(score: ContentScore, paid: boolean): void {
  const mark = paid ? PASS_MARK.paid : PASS_MARK.free;
  const kind = paid ? "paid" : "free";
  const details = {
    quality: score.quality,
    safety: score.safety,
    feedback: score.feedback,
    scored_by: score.scoredBy,
    pass_mark: mark,
  };
  if (score.safety < mark) {
    throw new PlatformError(
      403,
      "Content validation failed",
      `The content did not pass the safety review (${score.safety}/10; ${kind} content needs ${mark}): ${score.feedback}`,
      { contentQuality: score.quality, details },
      "CONTENT_UNSAFE",
    );
  }
  if (score.quality < mark) {
    throw new PlatformError(
      400,
      "Content validation failed",
      `The content quality is too low (${score.quality}/10; ${kind} content needs ${mark}): ${score.feedback}`,
      { contentQuality: score.quality, details },
      "CONTENT_QUALITY_TOO_LOW",
    );
  }
}

/**
 * Content no marketplace listing may carry, caught before any model is asked: requests for
 * weapons or malware, credential phishing (the audience holds wallets), jailbreak prompts and
 * sexual content involving minors. Deliberately narrow: the model score judges the grey areas.
 */
const UNSAFE_PATTERNS: { pattern: RegExp; reason: string }[] = [
  {
    pattern:
      /\b(make|build|synthesi[sz]e|assemble|produce)\b.{0,60}\b(bomb|explosive|nerve agent|bio-?weapon|chemical weapon)s?\b/i,
    reason: "instructions for weapons",
  },
  {
    pattern:
      /\b(write|build|create|code|develop)\b.{0,60}\b(ransomware|keylogger|credential stealer|info-?stealer|botnet)\b/i,
    reason: "malware creation",
  },
  {
    pattern:
      /\b(send|share|enter|paste|give|reveal|type)\b.{0,40}\b(seed phrase|recovery phrase|mnemonic|private key|secret key)s?\b/i,
    reason: "asks people for wallet secrets",
  },
  {
    pattern:
      /\b(ignore|disregard|forget)\b.{0,20}\b(all|any|the|your)?\s*(previous|prior|above|earlier)\s+(instructions|rules|prompts?)\b/i,
    reason: "a prompt-injection attempt",
  },
  { pattern: /\bdo anything now\b|\bjailbreak\b/i, reason: "a jailbreak prompt" },
  {
    pattern: /\b(child|minor|underage|kid)s?\b.{0,40}\b(sexual|porn|nude|explicit)\b/i,
    reason: "sexual content involving minors",
  },
];

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
