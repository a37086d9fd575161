import type { PlatformCaller } from "../../middleware/platform-auth";
import type { ApiDeps } from "../../deps";
import { assertDailyQuotaLeft, consumeDailyQuota, type DailyCounter } from "../daily-limits";
import type { PlatformServices } from "../platform-services";
import { contentHash } from "./content-hash";
import { validateContent } from "./content-validation";
import { assertNotDuplicate, duplicateError } from "./duplicates";
import { promptListingUrl } from "./listing-url";
import { contentOf, type PromptFields } from "./prompt-fields";
import { resolvePromptImage } from "./prompt-image";
import { pricePrompt } from "./prompt-price";
import type { PromptRow, PromptValues } from "./prompt-row";
import { findDuplicateId, insertPrompt, isDuplicateViolation } from "./prompt-store";
import { NOT_TOKENIZED, tokenizeStoredPrompt, type PromptTokenOutcome } from "./prompt-tokenization";
import { promptValues } from "./prompt-values";

/** E7's success body. */
export interface CreatePromptResult extends PromptTokenOutcome {
  success: true;
  id: string;
  listing_url: string;
}

/** Free prompts count as free content, paid ones as paid prompts. */
export function promptCounter(isFree: boolean): DailyCounter {
  return isFree ? "freeContent" : "paidPrompts";
}

/**
 * Stores the prompt and counts it against today's limit in one transaction (a refused insert gives
 * the count back). A concurrent copy of the same text loses on the unique index and gets the
 * duplicate error naming the prompt that won.
 */
async function insertCounted(deps: ApiDeps, services: PlatformServices, userId: string, counter: DailyCounter, values: PromptValues, now: Date): Promise<PromptRow> {
  try {
    return await deps.ds.transaction(async (tx) => {
      await consumeDailyQuota(tx, userId, counter, services.dailyLimits, now);
      return insertPrompt(tx, userId, values);
    });
  } catch (err) {
    if (isDuplicateViolation(err)) throw duplicateError(await findDuplicateId(deps.ds, userId, values.content_hash));
    throw err;
  }
}

/**
 * E7: the cheap refusals first (duplicate, daily limit), then content validation, the price and
 * the image, then the counted insert, then the token launch seam. Nothing is stored when any
 * step before the insert fails.
 */
export async function createPrompt(deps: ApiDeps, services: PlatformServices, caller: PlatformCaller, fields: PromptFields, now = new Date()): Promise<CreatePromptResult> {
  const counter = promptCounter(fields.is_free);
  await assertNotDuplicate(deps.ds, caller.userId, contentHash(fields.prompt));
  await assertDailyQuotaLeft(deps.ds, caller.userId, counter, services.dailyLimits, now);
  await validateContent(deps, services.contentScoring, caller.userId, contentOf(fields), !fields.is_free);
  const price = await pricePrompt(services.prices, fields.is_free, fields.price_usd);
  const image = (await resolvePromptImage(services.storage, fields)) ?? { image_url: null, file_path: null };
  const row = await insertCounted(deps, services, caller.userId, counter, promptValues(fields, price, image) as PromptValues, now);
  const token = fields.tokenized_on && fields.private_key ? await tokenizeStoredPrompt(deps, row, fields.private_key) : NOT_TOKENIZED;
  return { success: true, id: row.id, listing_url: promptListingUrl(row.id), ...token };
}
