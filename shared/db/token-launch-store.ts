import type { DataSource } from "typeorm";
import { insertLaunchingListing } from "./agent-listing-store";
import { insertLaunchRun } from "./runs/run-rows";
import type { QuotaColumn } from "./entities/daily-usage.entity";
import type { TokenLaunchRow } from "./entities/token-launch.entity";
import { sql, transaction, type Queryable, type Transaction } from "./sql";
import { isUniqueViolation } from "./unique-violation";

/** A launch as the chain worker reads it: the row, and the description of what the token is for. */
export type TokenLaunch = Omit<
  TokenLaunchRow,
  "quota_counter" | "quota_day" | "sent_at" | "confirmed_at" | "created_at" | "updated_at"
> & {
  /** From the listing (or prompt) the token is for. */
  description: string;
};

/** How a launch is made: where, by which launcher, for which wallet, with which curve settings. */
interface LaunchSettings {
  network: string;
  launcher: string;
  creatorWallet: string;
  quoteMint: "SOL" | "USDC";
  feeSelection: "market" | "frenzy";
}

export interface NewListingLaunch {
  runId: string;
  userId: string;
  apiKeyId: string | null;
  listing: {
    name: string;
    description: string;
    ticker: string;
    imageUrl: string | null;
    code: string;
    metadata: Record<string, unknown>;
  };
  launch: LaunchSettings;
  /** The run's stored request (no secrets). */
  request: unknown;
}

export interface NewPromptLaunch {
  runId: string;
  userId: string;
  apiKeyId: string | null;
  promptId: string;
  token: { name: string; ticker: string; imageUrl: string | null };
  launch: LaunchSettings;
  /** The count the prompt took when it was made for this launch: given back if the launch fails. */
  quota: { column: QuotaColumn; day: string } | null;
  /** The run's stored request (no secrets). */
  request: Record<string, unknown>;
}

const INSERT_LAUNCH = `
  INSERT INTO token_launches (run_id, user_id, listing_id, prompt_id, network, launcher, creator_wallet, name, ticker, image_url,
                              quote_mint, fee_selection, quota_counter, quota_day)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::date) RETURNING id`;

/**
 * Stores a listing's launch in one transaction: the listing (`launching`, not shown until it launched),
 * the queued run and the launch row. `beforeCommit` runs inside the same transaction (the daily
 * counter's conditional increment), so a refused launch leaves nothing behind.
 */
export async function insertListingLaunch(
  ds: DataSource,
  input: NewListingLaunch,
  beforeCommit?: (tx: Transaction) => Promise<void>,
): Promise<{ listingId: string; launchId: string }> {
  return transaction(ds, async (tx) => {
    if (beforeCommit) await beforeCommit(tx);
    const listingId = await insertLaunchingListing(tx, {
      user_id: input.userId,
      name: input.listing.name,
      description: input.listing.description,
      ticker: input.listing.ticker,
      code: input.listing.code,
      metadata: input.listing.metadata,
      image_url: input.listing.imageUrl,
    });
    await insertLaunchRun(tx, "token_launch", {
      ...input,
      request: { ...(input.request as object), listing_id: listingId },
    });
    const l = input.launch;
    const [launch] = await sql(tx, INSERT_LAUNCH, [
      input.runId,
      input.userId,
      listingId,
      null,
      l.network,
      l.launcher,
      l.creatorWallet,
      input.listing.name,
      input.listing.ticker,
      input.listing.imageUrl,
      l.quoteMint,
      l.feeSelection,
      null,
      null,
    ]);
    return { listingId, launchId: launch.id as string };
  });
}

/**
 * Stores a prompt's launch and its queued run inside the caller's transaction, so that they commit
 * together with the new prompt or not at all. A second launch for a prompt whose launch has not
 * failed is refused by a unique index (`isLiveLaunchViolation`). Returns the launch's id.
 */
export async function insertPromptLaunch(tx: Queryable, input: NewPromptLaunch): Promise<string> {
  await insertLaunchRun(tx, "prompt_tokenize", {
    ...input,
    request: { ...input.request, prompt_id: input.promptId },
  });
  const l = input.launch;
  const [launch] = await sql(tx, INSERT_LAUNCH, [
    input.runId,
    input.userId,
    null,
    input.promptId,
    l.network,
    l.launcher,
    l.creatorWallet,
    input.token.name,
    input.token.ticker,
    input.token.imageUrl,
    l.quoteMint,
    l.feeSelection,
    input.quota?.column ?? null,
    input.quota?.day ?? null,
  ]);
  return launch.id as string;
}

/** Whether an error is the index that allows one launch (not failed) per prompt. */
export function isLiveLaunchViolation(err: unknown): boolean {
  return isUniqueViolation(err, "token_launches_prompt_live_key");
}

/** The launch with this id, with the description of what its token is for; null when unknown. */
export async function findLaunch(ds: DataSource, id: string): Promise<TokenLaunch | null> {
  const rows = await sql<TokenLaunch>(
    ds,
    `SELECT t.*, COALESCE(a.description, p.description, '') AS description
       FROM token_launches t
       LEFT JOIN agent_listings a ON a.id = t.listing_id
       LEFT JOIN prompts p ON p.id = t.prompt_id
      WHERE t.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * Records the signed transactions' signatures before the first of them is sent: from here on a
 * retry confirms these instead of sending new ones. A compare-and-set on the signatures the caller
 * last saw: false when another worker stored its own meanwhile (a job delivered twice), which
 * must then be confirmed rather than competing with a second launch.
 */
export async function markLaunchSent(
  ds: DataSource,
  id: string,
  seen: string[],
  sent: { signatures: string[]; blockhashes: string[]; mintAddress: string; poolAddress: string | null },
): Promise<boolean> {
  const rows = await sql(
    ds,
    `UPDATE token_launches SET status = 'sent', signature = $2, signatures = $3, blockhashes = $4, mint_address = $5,
       pool_address = $6, sent_at = now(), updated_at = now()
     WHERE id = $1 AND status IN ('pending', 'sent') AND signatures = $7::text[]
     RETURNING id`,
    [id, sent.signatures[0], sent.signatures, sent.blockhashes, sent.mintAddress, sent.poolAddress, seen],
  );
  return rows.length === 1;
}
