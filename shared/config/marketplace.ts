import Joi from "joi";
import { count, defineDomain, ms, num, optionalNum, str } from "./setting";

const perDay = Joi.number().integer().min(0).default(500);

/** The prompt marketplace: daily creation limits, content scoring and review, seller trust, images. */
export const marketplace = defineDomain(
  "Marketplace",
  {
    DAILY_LIMIT_PAID_PROMPTS: num(perDay, "paid prompts one user may create per UTC day"),
    DAILY_LIMIT_PAID_AGENTS: num(perDay, "token launches (paid agents) one user may make per UTC day"),
    DAILY_LIMIT_FREE_CONTENT: num(perDay, "free prompts one user may create per UTC day"),
    CONTENT_SCORING_MODEL: str(
      Joi.string().default("gpt-4.1-mini"),
      "model that scores new prompts' quality and safety; `none` scores by the rules alone (`npm start` sets it when only the simulator answers)",
    ),
    CONTENT_SCORING_TIMEOUT_MS: num(ms.default(60_000), "longest wait for a score before the request is 503"),
    // Unset: every prompt waits for a moderator. Set: a model score at least this high (0–10) approves.
    AUTO_APPROVE_MIN_SCORE: optionalNum(
      Joi.number().min(0).max(10).empty(""),
      "0–10: a new or changed prompt whose model scores for quality and safety both reach it is approved without a moderator",
    ),
    TRUST_MIN_RATER_AGE_HOURS: num(
      Joi.number().min(0).default(72),
      "for a paid seller's trust: how old a rater's account must have been when it rated",
    ),
    TRUST_MIN_DISTINCT_RATERS: num(
      count.default(3),
      "for a paid seller's trust: how many different such accounts must have rated",
    ),
    IMAGE_MAX_BYTES: num(count.default(5 * 1024 * 1024), "largest accepted image"),
  },
  (env) => ({
    /** Per user and UTC day; a token launch counts as a paid agent. */
    dailyLimits: {
      paidPrompts: env("DAILY_LIMIT_PAID_PROMPTS"),
      paidAgents: env("DAILY_LIMIT_PAID_AGENTS"),
      freeContent: env("DAILY_LIMIT_FREE_CONTENT"),
    },
    contentScoring: { model: env("CONTENT_SCORING_MODEL"), timeoutMs: env("CONTENT_SCORING_TIMEOUT_MS") },
    /** Review: prompts wait for a moderator unless the operator opts into approval by a high model score. */
    moderation: { autoApproveMinScore: env("AUTO_APPROVE_MIN_SCORE") ?? null },
    /** Which ratings make a seller trusted for paid content: by accounts this old when they rated, this many of them. */
    trust: {
      minRaterAgeHours: env("TRUST_MIN_RATER_AGE_HOURS"),
      minDistinctRaters: env("TRUST_MIN_DISTINCT_RATERS"),
    },
    imageMaxBytes: env("IMAGE_MAX_BYTES"),
  }),
);
