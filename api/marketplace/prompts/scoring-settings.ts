/** `CONTENT_SCORING_MODEL` and its wait; the model `none` means the rules alone decide. */
export interface ScoringSettings {
  model: string;
  timeoutMs: number;
}

export const RULES_ONLY = "none";
