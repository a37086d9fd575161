import type { ApiDeps } from "../../deps";
import { scoreByRules } from "./content-rules";
import { assertPasses, type ContentScore } from "./content-score";
import { scoreWithModel } from "./content-scoring";
import type { PromptContent } from "./prompt-fields";
import { RULES_ONLY, type ScoringSettings } from "./scoring-settings";
import { assertTrustedSeller, type TrustSettings } from "./trust";

/**
 * CONTRACT.md's content validation, cheapest first: the rules (length, repetition, unsafe
 * patterns), then for paid content the seller's trustworthiness, then the scoring model (unless
 * `CONTENT_SCORING_MODEL=none`). Each stage must reach the pass mark; the first that does not
 * throws 400 (quality) or 403 (safety, trust). Returns the deciding score.
 */
export async function validateContent(
  deps: ApiDeps,
  settings: { contentScoring: ScoringSettings; trust: TrustSettings },
  userId: string,
  content: PromptContent,
  paid: boolean,
): Promise<ContentScore> {
  const rules = scoreByRules(content);
  assertPasses(rules, paid);
  if (paid) await assertTrustedSeller(deps.ds, settings.trust, userId);
  if (settings.contentScoring.model === RULES_ONLY) return rules;
  const scored = await scoreWithModel(deps, settings.contentScoring, userId, content);
  assertPasses(scored, paid);
  return scored;
}
