import { PlatformError } from "../../platform-error";

/** A listing's scores (0–10 each) and the reviewer's words. */
export interface ContentScore {
  quality: number;
  safety: number;
  feedback: string;
  /** Who scored: the cheap rules, or the scoring model. */
  scoredBy: "rules" | "model";
}

/** Pass marks (CONTRACT.md): free content needs 4, paid content 6, in quality and in safety. */
export const PASS_MARK = { free: 4, paid: 6 } as const;

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
