import type { PlatformCaller } from "../../middleware/platform-auth";
import type { ApiDeps } from "../../deps";
import { assertDailyQuotaLeft, consumeDailyQuota, type DailyCounter, type DailyLimits } from "../daily-limits";
import type { PlatformServices } from "../platform-services";
import { contentHash } from "./content-hash";
import { validateContent } from "./content-validation";
import { assertNotDuplicate, duplicateError } from "./duplicates";
import { promptListingUrl } from "./listing-url";
import { contentOf, type PromptFields } from "./prompt-fields";
import { resolvePromptImage } from "./prompt-image";
import { pricePrompt } from "./prompt-price";
import type { PromptRow, PromptSource, PromptValues } from "./prompt-row";
import { findDuplicateId, insertPrompt, isDuplicateViolation } from "./prompt-store";
import { NOT_TOKENIZED, tokenizeStoredPrompt, type PromptTokenOutcome } from "./prompt-tokenization";
import { promptValues } from "./prompt-values";

/** E7's success body. */
export interface CreatePromptResult extends PromptTokenOutcome {
  success: true;
  id: string;
  listing_url: string;
}

/** A new prompt that passed E7's checks: the columns to store and the daily counter it takes. */
export interface PreparedPrompt {
  counter: DailyCounter;
  values: PromptValues;
}

/** Free prompts count as free content, paid ones as paid prompts. */
export function promptCounter(isFree: boolean): DailyCounter {
  return isFree ? "freeContent" : "paidPrompts";
}

/**
 * E7 up to the insert, stopping at the first refusal: the cheap ones first (a duplicate of the
 * user's, today's limit already reached), then content validation, the price and the image.
 * Nothing is stored. `source` records where the prompt came from (E7, or a published agent).
 */
export async function preparePrompt(
  deps: ApiDeps,
  services: PlatformServices,
  userId: string,
  fields: PromptFields,
  options: { source: PromptSource; now: Date },
): Promise<PreparedPrompt> {
  const counter = promptCounter(fields.is_free);
  await assertNotDuplicate(deps.ds, userId, contentHash(fields.prompt));
  await assertDailyQuotaLeft(deps.ds, userId, counter, services.dailyLimits, options.now);
  await validateContent(deps, services.contentScoring, userId, contentOf(fields), !fields.is_free);
  const price = await pricePrompt(services.prices, fields.is_free, fields.price_usd);
  const image = (await resolvePromptImage(services.storage, fields)) ?? { image_url: null, file_path: null };
  return { counter, values: { ...promptValues(fields, price, image), source: options.source } as PromptValues };
}

/**
 * Stores prepared prompts of one user in one transaction, each counted against today's limit
 * (the conditional increment: concurrent requests never pass it). Either all are stored and
 * counted, or none: a refused count (the 429) or insert gives every count back. A concurrent copy
 * of one of the texts makes the unique index refuse the insert (see `isDuplicateViolation`).
 */
export async function insertPreparedPrompts(deps: ApiDeps, limits: DailyLimits, userId: string, prompts: PreparedPrompt[], now: Date): Promise<PromptRow[]> {
  return deps.ds.transaction(async (tx) => {
    const rows: PromptRow[] = [];
    for (const { counter, values } of prompts) {
      await consumeDailyQuota(tx, userId, counter, limits, now);
      rows.push(await insertPrompt(tx, userId, values));
    }
    return rows;
  });
}

/**
 * E7: the checks of `preparePrompt`, then the counted insert, then the token launch seam. A
 * concurrent copy of the same text loses on the unique index and gets the duplicate error naming
 * the prompt that won.
 */
export async function createPrompt(deps: ApiDeps, services: PlatformServices, caller: PlatformCaller, fields: PromptFields, now = new Date()): Promise<CreatePromptResult> {
  const prepared = await preparePrompt(deps, services, caller.userId, fields, { source: "api", now });
  let row: PromptRow;
  try {
    [row] = await insertPreparedPrompts(deps, services.dailyLimits, caller.userId, [prepared], now);
  } catch (err) {
    if (isDuplicateViolation(err)) throw duplicateError(await findDuplicateId(deps.ds, caller.userId, prepared.values.content_hash));
    throw err;
  }
  const token = fields.tokenized_on && fields.private_key ? await tokenizeStoredPrompt(deps, row, fields.private_key) : NOT_TOKENIZED;
  return { success: true, id: row.id, listing_url: promptListingUrl(row.id), ...token };
}
