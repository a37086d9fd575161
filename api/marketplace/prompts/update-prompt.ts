import type { PlatformCaller } from "../../auth/platform-caller";
import type { ApiDeps } from "../../deps";
import { PlatformError, platformValidationError, type FieldProblem } from "../../platform-error";
import type { PlatformServices } from "../platform-services";
import type { ListingKind, PromptRow } from "../../../shared/db/entities/prompt.entity";
import {
  findDuplicateId,
  findOwnPrompt,
  isDuplicateViolation,
  updatePrompt,
  type PromptValues,
} from "../../../shared/db/prompt-store";
import type { ContentScore } from "./content-rules";
import { validateContent } from "./content-validation";
import { assertNotDuplicate, contentHash, duplicateError } from "./duplicates";
import { imageFieldOf, plannedPromptImageUrl, resolvePromptImage } from "./prompt-image";
import {
  contentOf,
  crossFieldProblems,
  pricePrompt,
  promptListingUrl,
  promptValues,
  toPromptRecord,
  type PromptFields,
  type PromptPrice,
  type PromptRecord,
} from "./prompt-record";
import { checkPromptToken, launchPromptToken, storePromptLaunch, type PromptToken } from "./tokenize-prompt";
import { listingChanged, reviewOnEdit } from "./review";
import type { ListingExtras } from "./create-prompt";
import { transaction } from "../../../shared/db/sql";

export type PromptEdit = Partial<PromptFields> & { id: string };

/** Prompt editing's success body: `updated_data` is the stored record after the update. */
export interface UpdatePromptResult {
  success: true;
  id: string;
  listing_url: string;
  updated_data: PromptRecord;
}

const NOT_FOUND_CODES: Record<ListingKind, string> = {
  prompt: "PROMPT_NOT_FOUND",
  agent: "AGENT_NOT_FOUND",
  bundle: "BUNDLE_NOT_FOUND",
};

/** The 404 of an edit whose id is none of the caller's listings of `kind`. */
export function listingNotFound(kind: ListingKind): PlatformError {
  return new PlatformError(404, "Not found", `You have no ${kind} with this id`, {}, NOT_FOUND_CODES[kind]);
}

/** A prompt created with a token still being launched: not listed yet, and not to be edited yet. */
function isLaunching(row: PromptRow): boolean {
  return row.tokenized_on && !row.token_address;
}

/** The stored prompt with the edit applied, in prompt creation's field names (for the rules that join fields). */
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

/** A launched token cannot be undone or renamed: its ticker is on chain. */
function tokenEditProblems(current: PromptRow, edit: Partial<PromptFields>): FieldProblem[] {
  if (!current.tokenized_on) return [];
  const problems: FieldProblem[] = [];
  if (edit.tokenized_on === false)
    problems.push({
      path: "tokenized_on",
      message: "'tokenized_on' cannot be turned off: the prompt's token is launched",
    });
  if (edit.ticker && edit.ticker !== current.ticker)
    problems.push({
      path: "ticker",
      message: "'ticker' cannot change: the prompt's token is launched with its ticker",
    });
  return problems;
}

/** The token the edit launches (turning `tokenized_on` on for a prompt without one), or null. */
function tokenToLaunch(
  services: PlatformServices,
  current: PromptRow,
  next: PromptFields,
  edit: Partial<PromptFields>,
): PromptToken | null {
  if (!next.tokenized_on || !next.ticker || !edit.private_key) return null;
  const planned = plannedPromptImageUrl(services.storage, edit);
  return {
    name: next.name,
    ticker: next.ticker,
    imageUrl: planned === undefined ? current.image_url : planned,
    imageField: imageFieldOf(edit) ?? "image_url",
    creator: edit.private_key,
  };
}

/**
 * Checks what the edit changes: duplicates, content (again, when it changed or turns paid) and the
 * price. Returns the new price, if it changed, and the content's new score, if it was scored.
 */
async function checkEdit(
  deps: ApiDeps,
  services: PlatformServices,
  userId: string,
  current: PromptRow,
  edit: Partial<PromptFields>,
  next: PromptFields,
  scoredText: string | undefined,
): Promise<{ price?: PromptPrice; score: ContentScore | null }> {
  if (edit.prompt !== undefined)
    await assertNotDuplicate(deps.ds, userId, contentHash(edit.prompt), current.id, current.kind);
  let score: ContentScore | null = null;
  if (contentChanged(current, edit) || (current.is_free && !next.is_free)) {
    const content = contentOf({ ...next, prompt: scoredText ?? next.prompt });
    score = await validateContent(deps, services, userId, content, !next.is_free);
  }
  const priceChanged = edit.is_free !== undefined || edit.price_usd !== undefined;
  return { price: priceChanged ? await pricePrompt(services.prices, next.is_free, next.price_usd) : undefined, score };
}

/**
 * Launches the token of an existing prompt before any of the edit is written: when the launch
 * fails (or is still being confirmed when the wait ends) the prompt stays as it was and the error
 * is the answer; once it has launched, the worker has recorded the token on the prompt.
 */
async function launchEditToken(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  current: PromptRow,
  token: PromptToken,
): Promise<void> {
  const launch = await transaction(deps.ds, (tx) => storePromptLaunch(tx, caller, current.id, token, null));
  await launchPromptToken(
    deps,
    services,
    current.id,
    launch,
    token.creator,
    "the token appears on the prompt once launched; the rest of the edit was not applied",
  );
}

/**
 * Writes the edit and the review it leads to, decided on the row as locked for the write (see
 * `reviewOnEdit`); a token launched by this edit changes the listing too.
 */
async function write(
  deps: ApiDeps,
  services: PlatformServices,
  userId: string,
  current: PromptRow,
  values: Partial<PromptValues>,
  edit: { score: ContentScore | null; launchedToken: boolean; writeWith?: ListingExtras["writeWith"] },
): Promise<PromptRow> {
  const { id, kind } = current;
  try {
    return await transaction(deps.ds, async (tx) => {
      const locked = await findOwnPrompt(tx, id, userId, { forUpdate: true, kind });
      if (!locked) throw listingNotFound(kind);
      const review = reviewOnEdit(
        services.moderation,
        locked,
        edit.launchedToken || listingChanged(locked, values),
        edit.score,
      );
      const row = await updatePrompt(tx, id, { ...values, ...review });
      await edit.writeWith?.(tx, row);
      return row;
    });
  } catch (err) {
    if (isDuplicateViolation(err))
      throw duplicateError(await findDuplicateId(deps.ds, userId, values.content_hash ?? "", id, kind));
    throw err;
  }
}

/**
 * `POST /api/edit-prompt` and `/api/edit-agent`: a partial update of one of the caller's listings of `kind` (another user's, or an unknown id, is 404;
 * one whose creation's token is still being launched, 409). Given fields follow prompt creation's rules; changed
 * content is validated and duplicate-checked again; the price is converted again when `is_free`
 * or `price_usd` changes. Turning `tokenized_on` on launches the prompt's token first (after the
 * same checks as prompt creation: the launcher's limits, the wallet's balance), and the edit is written only
 * once it has launched; such a launch counts against no daily limit (the prompt was counted).
 * `status` is only a request to the moderators; an edit that changes an approved listing sends it
 * back to review, and a rejected prompt stays rejected (see review.ts).
 */
export async function editListing(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  edit: PromptEdit,
  kind: ListingKind,
  { scoredText, writeWith }: ListingExtras = {},
): Promise<PromptRow> {
  const { id, ...fields } = edit;
  const current = await findOwnPrompt(deps.ds, id, caller.userId, { kind });
  if (!current) throw listingNotFound(kind);
  if (isLaunching(current))
    throw new PlatformError(
      409,
      "Conflict",
      "This prompt's token is still being launched; edit it once it has launched",
      {},
      "PROMPT_LAUNCHING",
    );
  const next = merged(current, fields);
  const problems = [...tokenEditProblems(current, fields), ...crossFieldProblems(next)];
  if (problems.length > 0) throw platformValidationError(problems);
  const token = tokenToLaunch(services, current, next, fields);
  if (token) await checkPromptToken(services, token);
  const { price, score } = await checkEdit(deps, services, caller.userId, current, fields, next, scoredText);
  const image = await resolvePromptImage(services.storage, fields);
  if (token)
    await launchEditToken(deps, services, caller, current, {
      ...token,
      imageUrl: image ? image.image_url : current.image_url,
    });
  return write(deps, services, caller.userId, current, promptValues(fields, price, image), {
    score,
    launchedToken: token !== null,
    writeWith,
  });
}

/** `POST /api/edit-prompt`: `editListing` on the caller's prompts, answered with the stored record. */
export async function editPrompt(
  deps: ApiDeps,
  services: PlatformServices,
  caller: PlatformCaller,
  edit: PromptEdit,
): Promise<UpdatePromptResult> {
  const row = await editListing(deps, services, caller, edit, "prompt");
  return {
    success: true,
    id: row.id,
    listing_url: promptListingUrl(row.id),
    updated_data: toPromptRecord(row, caller.userId),
  };
}
