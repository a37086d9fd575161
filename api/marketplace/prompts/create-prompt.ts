import type { PlatformCaller } from "../../auth/platform-caller";
import type { ApiDeps } from "../../deps";
import { utcDay } from "../../../shared/limits/utc-day";
import {
  assertDailyQuotaLeft,
  consumeDailyQuota,
  counterColumn,
  type DailyCounter,
  type DailyLimits,
} from "../../limits/daily-limits";
import type { PlatformServices } from "../platform-services";
import type { ListingKind, PromptRow, PromptSource } from "../../../shared/db/entities/prompt.entity";
import {
  findDuplicateId,
  insertPrompt,
  isDuplicateViolation,
  type PromptValues,
} from "../../../shared/db/prompt-store";
import { validateContent } from "./content-validation";
import { assertNotDuplicate, contentHash, duplicateError } from "./duplicates";
import { imageFieldOf, plannedPromptImageUrl, resolvePromptImage } from "./prompt-image";
import { contentOf, pricePrompt, promptListingUrl, promptValues, type PromptFields } from "./prompt-record";
import {
  checkPromptToken,
  launchPromptToken,
  NOT_TOKENIZED,
  storePromptLaunch,
  type PromptToken,
  type PromptTokenOutcome,
} from "./tokenize-prompt";
import type { StoredLaunch } from "../../token-launch/launch-job";
import { reviewOnCreate } from "./review";
import { transaction, type Queryable } from "../../../shared/db/sql";

/** Prompt creation's success body. */
export interface CreatePromptResult extends PromptTokenOutcome {
  success: true;
  id: string;
  listing_url: string;
}

/** A new prompt that passed prompt creation's checks: the columns to store and the daily counter it takes. */
export interface PreparedPrompt {
  counter: DailyCounter;
  values: PromptValues;
}

/**
 * What a listing kind adds to prompt creation and editing: the text the content is scored on in place of the listing's
 * own (a bundle's stored text is its member ids; its description is what a reviewer reads), and rows written in the
 * listing's own transaction (a bundle's members).
 */
export interface ListingExtras {
  scoredText?: string;
  writeWith?: (tx: Queryable, row: PromptRow) => Promise<void>;
}

/** A prompt's agent columns (an agent's fields set them). */
const AGENT_COLUMNS_UNSET = { language: null, requirements: [], agent_config: null };

/** Free prompts count as free content, paid ones as paid prompts. */
function promptCounter(isFree: boolean): DailyCounter {
  return isFree ? "freeContent" : "paidPrompts";
}

/**
 * Prompt creation up to the insert, stopping at the first refusal: the cheap ones first (a duplicate of the
 * user's, today's limit already reached), then content validation, the price and the image.
 * Nothing is stored. The prompt waits for review whatever status was asked for (see
 * review.ts). `source` records where the prompt came from (`POST /api/add-prompt`, or a published agent).
 */
export async function preparePrompt(
  deps: ApiDeps,
  services: PlatformServices,
  userId: string,
  fields: PromptFields,
  options: { source: PromptSource; now: Date; token?: PromptToken | null; kind?: ListingKind; scoredText?: string },
): Promise<PreparedPrompt> {
  const kind = options.kind ?? "prompt";
  const counter = promptCounter(fields.is_free);
  await assertNotDuplicate(deps.ds, userId, contentHash(fields.prompt), null, kind);
  await assertDailyQuotaLeft(deps.ds, userId, counter, services.dailyLimits, options.now);
  // A token's cheap refusals (the launcher's metadata limits, the wallet's balance) come before content scoring.
  if (options.token) await checkPromptToken(services, options.token);
  const content = contentOf({ ...fields, prompt: options.scoredText ?? fields.prompt });
  const score = await validateContent(deps, services, userId, content, !fields.is_free);
  const price = await pricePrompt(services.prices, fields.is_free, fields.price_usd);
  const image = (await resolvePromptImage(services.storage, fields)) ?? { image_url: null, file_path: null };
  const review = reviewOnCreate(services.moderation, score);
  return {
    counter,
    values: {
      ...AGENT_COLUMNS_UNSET,
      ...promptValues(fields, price, image),
      ...review,
      source: options.source,
      kind,
    } as PromptValues,
  };
}

/**
 * Stores prepared prompts of one user in one transaction, each counted against today's limit
 * (the conditional increment: concurrent requests never pass it). Either all are stored and
 * counted, or none: a refused count (the 429) or insert gives every count back. A concurrent copy
 * of one of the texts makes the unique index refuse the insert (see `isDuplicateViolation`).
 */
export async function insertPreparedPrompts(
  deps: ApiDeps,
  limits: DailyLimits,
  userId: string,
  prompts: PreparedPrompt[],
  now: Date,
): Promise<PromptRow[]> {
  return transaction(deps.ds, async (tx) => {
    const rows: PromptRow[] = [];
    for (const { counter, values } of prompts) {
      await consumeDailyQuota(tx, userId, counter, limits, now);
      rows.push(await insertPrompt(tx, userId, values));
    }
    return rows;
  });
}

const PENDING_AFTERWARDS = "the prompt is listed once its token has launched, and removed if the launch fails";

/** The token a new prompt asks for (`tokenized_on` with its fields, already checked by the joined rules), or null. */
function requestedToken(services: PlatformServices, fields: PromptFields): PromptToken | null {
  if (!fields.tokenized_on || !fields.private_key || !fields.ticker) return null;
  return {
    name: fields.name,
    ticker: fields.ticker,
    imageUrl: plannedPromptImageUrl(services.storage, fields) ?? null,
    imageField: imageFieldOf(fields) ?? "image_url",
    creator: fields.private_key,
  };
}

/**
 * Stores the prompt and counts it against today's limit in one transaction (a refused insert gives
 * the count back), together with its token's launch and run when it is tokenized. A concurrent copy
 * of the same text loses on the unique index and gets the duplicate error naming the prompt that won.
 */
async function insertCounted(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  { counter, values }: PreparedPrompt,
  token: PromptToken | null,
  now: Date,
  writeWith?: ListingExtras["writeWith"],
): Promise<{ row: PromptRow; launch: StoredLaunch | null }> {
  try {
    return await transaction(deps.ds, async (tx) => {
      await consumeDailyQuota(tx, caller.userId, counter, services.dailyLimits, now);
      const row = await insertPrompt(tx, caller.userId, values);
      await writeWith?.(tx, row);
      const launch = token
        ? await storePromptLaunch(tx, caller, row.id, token, { column: counterColumn(counter), day: utcDay(now) })
        : null;
      return { row, launch };
    });
  } catch (err) {
    if (isDuplicateViolation(err))
      throw duplicateError(await findDuplicateId(deps.ds, caller.userId, values.content_hash, null, values.kind));
    throw err;
  }
}

/**
 * `POST /api/add-prompt` (and `POST /api/add-agent` and `POST /api/v1/publish/bundle`, listings of `kind` agent and
 * bundle, with their `ListingExtras`): the cheap refusals first (duplicate, daily limit, then for a token the launcher's metadata
 * limits and the wallet's balance), then content validation, the price and the image, then the
 * counted insert, then the token launch. Nothing is stored when any step before the insert fails.
 *
 * A tokenized prompt is all or nothing: it is stored with `tokenized_on` but no token, which keeps
 * it from every listing and page, and shows up once its token has launched. When the launch fails,
 * the chain worker deletes it and gives back its daily count (the answer is 400 `Tokenization
 * failed`), so no untokenized prompt the user did not ask for is left listed, and the same prompt
 * can be sent again at once. The prompt counts once, as free content or a paid prompt; its token
 * does not also count as a paid agent.
 */
export async function createPrompt(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  fields: PromptFields,
  { now = new Date(), kind = "prompt", scoredText, writeWith }: { now?: Date; kind?: ListingKind } & ListingExtras = {},
): Promise<CreatePromptResult> {
  const token = requestedToken(services, fields);
  const prepared = await preparePrompt(deps, services, caller.userId, fields, {
    source: "api",
    now,
    token,
    kind,
    scoredText,
  });
  const launching = token && { ...token, imageUrl: prepared.values.image_url ?? null };
  const { row, launch } = await insertCounted(deps, services, caller, prepared, launching, now, writeWith);
  if (!launch || !launching)
    return { success: true, id: row.id, listing_url: promptListingUrl(row.id, kind), ...NOT_TOKENIZED };
  const outcome = await launchPromptToken(deps, services, row.id, launch, launching.creator, PENDING_AFTERWARDS);
  return { success: true, id: row.id, listing_url: promptListingUrl(row.id, kind), ...outcome };
}
