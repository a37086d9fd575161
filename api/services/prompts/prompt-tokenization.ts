import type { CreatorKey } from "../../../shared/solana/creator-key";
import type { ApiDeps } from "../../deps";
import type { PromptRow } from "./prompt-row";
import { setPromptToken } from "./prompt-store";

/** A prompt's token to launch (E7 with `tokenized_on`). */
export interface PromptTokenLaunch {
  promptId: string;
  userId: string;
  name: string;
  /** Uppercased and checked (1–10 letters and digits). */
  ticker: string;
  description: string;
  imageUrl: string | null;
  /** Checked against `creator_wallet`; pays for and signs the launch. Never stored. */
  creator: CreatorKey;
}

/** E7's token fields of the success body. */
export interface PromptTokenOutcome {
  tokenized: boolean;
  token_address: string | null;
  pool_address: string | null;
}

export const NOT_TOKENIZED: PromptTokenOutcome = { tokenized: false, token_address: null, pool_address: null };

/**
 * The one place a stored prompt's token is launched. The chain launch (the `chain` queue's
 * launcher, with the key encrypted before it enters Redis) is not wired in yet: until it is, a
 * valid request is stored with `tokenized_on` and its ticker, and answers `tokenized: false`.
 */
export async function launchPromptToken(_deps: ApiDeps, _launch: PromptTokenLaunch): Promise<PromptTokenOutcome> {
  return NOT_TOKENIZED;
}

/** Launches a stored prompt's token through the seam and records the addresses when it launched. */
export async function tokenizeStoredPrompt(deps: ApiDeps, row: PromptRow, creator: CreatorKey): Promise<PromptTokenOutcome> {
  if (!row.ticker) return NOT_TOKENIZED;
  const outcome = await launchPromptToken(deps, {
    promptId: row.id,
    userId: row.user_id,
    name: row.name,
    ticker: row.ticker,
    description: row.description ?? "",
    imageUrl: row.image_url,
    creator,
  });
  if (outcome.tokenized) await setPromptToken(deps.ds, row.id, outcome.token_address, outcome.pool_address);
  return outcome;
}
