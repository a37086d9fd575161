import Joi from "joi";
import type { CreatorKey } from "../../shared/chain/creator-key";
import { tokenLaunchSchema } from "./token-launch-request.schema";

/**
 * The most launches one batch takes: each is a chain job the request waits for, and each wallet pays for its own, so
 * a bound keeps one request from holding the chain worker for long.
 */
export const MAX_BATCH_LAUNCHES = 50;

/** `POST /api/token/launch/batch` body after validation: the items are checked one by one (a bad item fails alone). */
export interface TokenLaunchBatchBody {
  /** The key of every item that gives none, parsed. */
  private_key?: CreatorKey;
  tokens: Record<string, unknown>[];
}

/** The batch's envelope: a default key (checked as the launch checks one) and 1–`MAX_BATCH_LAUNCHES` item objects. */
export const tokenLaunchBatchSchema = Joi.object<TokenLaunchBatchBody>({
  private_key: tokenLaunchSchema
    .extract("private_key")
    .optional()
    .description("The key of every item that gives none (an item's own `private_key` takes precedence)"),
  tokens: Joi.array()
    .items(Joi.object().unknown(true).description("A body of `POST /api/token/launch` (JSON: `image` a URL or base64)"))
    .min(1)
    .max(MAX_BATCH_LAUNCHES)
    .required()
    .messages({
      "array.min": "tokens must hold at least 1 launch",
      "array.max": `tokens must hold at most ${MAX_BATCH_LAUNCHES} launches`,
    }),
});
