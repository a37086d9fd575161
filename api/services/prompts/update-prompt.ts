import type { PlatformCaller } from "../../middleware/platform-auth";
import type { ApiDeps } from "../../deps";
import { PlatformError, platformValidationError } from "../../platform/platform-error";
import type { PlatformServices } from "../platform-services";
import { contentHash } from "./content-hash";
import { validateContent } from "./content-validation";
import { assertNotDuplicate, duplicateError } from "./duplicates";
import { promptListingUrl } from "./listing-url";
import { contentOf, type PromptFields } from "./prompt-fields";
import { resolvePromptImage } from "./prompt-image";
import { pricePrompt, type PromptPrice } from "./prompt-price";
import { toPromptRecord, type PromptRecord } from "./prompt-record";
import type { PromptRow, PromptValues } from "./prompt-row";
import { crossFieldProblems } from "./prompt-rules";
import { findDuplicateId, findOwnPrompt, isDuplicateViolation, updatePrompt } from "./prompt-store";
import { tokenizeStoredPrompt } from "./prompt-tokenization";
import { promptValues } from "./prompt-values";

export type PromptEdit = Partial<PromptFields> & { id: string };

/** E8's success body: `updated_data` is the stored record after the update. */
export interface UpdatePromptResult {
  success: true;
  id: string;
  listing_url: string;
  updated_data: PromptRecord;
}

function notFound(): PlatformError {
  return new PlatformError(404, "Not found", "You have no prompt with this id", {}, "PROMPT_NOT_FOUND");
}

/** The stored prompt with the edit applied, in E7's field names (for the rules that join fields). */
function merged(current: PromptRow, edit: Partial<PromptFields>): PromptFields {
  return {
    name: edit.name ?? current.name,
    prompt: edit.prompt ?? current.prompt,
    description: edit.description !== undefined ? edit.description : current.description,
    useCases: edit.useCases ?? current.use_cases,
    tags: edit.tags ?? current.tags ?? "",
    is_free: edit.is_free ?? current.is_free,
    price_usd: edit.price_usd !== undefined ? edit.price_usd : current.price_usd,
    status: edit.status ?? current.status,
    // Only a prompt not tokenized yet needs the launch fields again.
    tokenized_on: edit.tokenized_on === true && !current.tokenized_on,
    ticker: edit.ticker !== undefined ? edit.ticker : current.ticker,
    links: edit.links ?? current.links,
    creator_wallet: edit.creator_wallet,
    private_key: edit.private_key,
  };
}

function contentChanged(current: PromptRow, edit: Partial<PromptFields>): boolean {
  return (
    (edit.prompt !== undefined && edit.prompt !== current.prompt) ||
    (edit.name !== undefined && edit.name !== current.name) ||
    (edit.description !== undefined && (edit.description ?? "") !== (current.description ?? "")) ||
    (edit.useCases !== undefined && JSON.stringify(edit.useCases) !== JSON.stringify(current.use_cases))
  );
}

/** Checks what the edit changes: the joined rules, duplicates, content (again, when it changed or turns paid) and the price. */
async function checkEdit(deps: ApiDeps, services: PlatformServices, userId: string, current: PromptRow, edit: Partial<PromptFields>): Promise<PromptPrice | undefined> {
  const next = merged(current, edit);
  const problems = crossFieldProblems(next);
  if (problems.length > 0) throw platformValidationError(problems);
  if (edit.prompt !== undefined) await assertNotDuplicate(deps.ds, userId, contentHash(edit.prompt), current.id);
  if (contentChanged(current, edit) || (current.is_free && !next.is_free)) {
    await validateContent(deps, services.contentScoring, userId, contentOf(next), !next.is_free);
  }
  const priceChanged = edit.is_free !== undefined || edit.price_usd !== undefined;
  return priceChanged ? pricePrompt(services.prices, next.is_free, next.price_usd) : undefined;
}

async function write(deps: ApiDeps, userId: string, id: string, values: Partial<PromptValues>): Promise<PromptRow> {
  try {
    return await deps.ds.transaction(async (tx) => {
      if (!(await findOwnPrompt(tx, id, userId, { forUpdate: true }))) throw notFound();
      return updatePrompt(tx, id, values);
    });
  } catch (err) {
    if (isDuplicateViolation(err)) throw duplicateError(await findDuplicateId(deps.ds, userId, values.content_hash ?? "", id));
    throw err;
  }
}

/**
 * E8: a partial update of one of the caller's prompts (another user's, or an unknown id, is 404).
 * Given fields follow E7's rules; changed content is validated and duplicate-checked again; the
 * price is converted again when `is_free` or `price_usd` changes.
 */
export async function editPrompt(deps: ApiDeps, services: PlatformServices, caller: PlatformCaller, edit: PromptEdit): Promise<UpdatePromptResult> {
  const { id, ...fields } = edit;
  const current = await findOwnPrompt(deps.ds, id, caller.userId);
  if (!current) throw notFound();
  const price = await checkEdit(deps, services, caller.userId, current, fields);
  const image = await resolvePromptImage(services.storage, fields);
  const row = await write(deps, caller.userId, id, promptValues(fields, price, image));
  // E8's body has no token fields: a launch records its addresses on the row itself.
  if (fields.tokenized_on === true && !current.tokenized_on && fields.private_key) await tokenizeStoredPrompt(deps, row, fields.private_key);
  return { success: true, id, listing_url: promptListingUrl(id), updated_data: toPromptRecord(row, caller.userId) };
}
