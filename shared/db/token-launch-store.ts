import type { DataSource, EntityManager } from "typeorm";
import { sql } from "./sql";
import { isUniqueViolation } from "./unique-violation";

/** A `token_launches` row (the key that signs it is never stored). */
export interface TokenLaunch {
  id: string;
  run_id: string | null;
  user_id: string;
  listing_id: string | null;
  prompt_id: string | null;
  network: string;
  launcher: string;
  creator_wallet: string;
  name: string;
  ticker: string;
  image_url: string | null;
  quote_mint: "SOL" | "USDC";
  fee_selection: "market" | "frenzy";
  mint_address: string | null;
  pool_address: string | null;
  /** The first transaction's signature (the launch's public identifier). */
  signature: string | null;
  signatures: string[];
  blockhashes: string[];
  status: "pending" | "sent" | "confirmed" | "failed";
  error: string | null;
  /** From the listing (or prompt) the token is for. */
  description: string;
}

/** How a launch is made: where, by which launcher, for which wallet, with which curve settings. */
export interface LaunchSettings {
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

/** A daily counter's column (fixed names: they are interpolated into SQL, never anything from a request). */
export type QuotaColumn = "paid_prompts" | "paid_agents" | "free_content";
const QUOTA_COLUMNS: readonly QuotaColumn[] = ["paid_prompts", "paid_agents", "free_content"];

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

type Queryable = Pick<EntityManager, "query">;

/** TypeORM answers UPDATE/DELETE … RETURNING with `[rows, count]` and other statements with rows. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

/** The queued run of a launch (`token_launch` for E6, `prompt_tokenize` for E7/E8). */
async function insertLaunchRun(
  manager: Queryable,
  kind: "token_launch" | "prompt_tokenize",
  run: { runId: string; apiKeyId: string | null; userId: string; request: unknown },
): Promise<void> {
  await manager.query(
    `INSERT INTO runs (id, job_id, kind, api_key_id, user_id, status, request) VALUES ($1::uuid, $1::text, $2, $3, $4, 'queued', $5)`,
    [run.runId, kind, run.apiKeyId, run.userId, JSON.stringify(run.request)],
  );
}

const INSERT_LAUNCH = `
  INSERT INTO token_launches (run_id, user_id, listing_id, prompt_id, network, launcher, creator_wallet, name, ticker, image_url,
                              quote_mint, fee_selection, quota_counter, quota_day)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::date) RETURNING id`;

/**
 * Stores an E6 launch in one transaction: the listing (`launching`, not shown until it launched),
 * the queued run and the launch row. `beforeCommit` runs inside the same transaction (the daily
 * counter's conditional increment), so a refused launch leaves nothing behind.
 */
export async function insertListingLaunch(
  ds: DataSource,
  input: NewListingLaunch,
  beforeCommit?: (manager: EntityManager) => Promise<void>,
): Promise<{ listingId: string; launchId: string }> {
  return ds.transaction(async (manager) => {
    if (beforeCommit) await beforeCommit(manager);
    const [listing] = await manager.query(
      `INSERT INTO agent_listings (user_id, name, description, ticker, code, metadata, image_url, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'launching') RETURNING id`,
      [
        input.userId,
        input.listing.name,
        input.listing.description,
        input.listing.ticker,
        input.listing.code,
        JSON.stringify(input.listing.metadata),
        input.listing.imageUrl,
      ],
    );
    await insertLaunchRun(manager, "token_launch", {
      ...input,
      request: { ...(input.request as object), listing_id: listing.id },
    });
    const l = input.launch;
    const [launch] = await manager.query(INSERT_LAUNCH, [
      input.runId,
      input.userId,
      listing.id,
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
    return { listingId: listing.id as string, launchId: launch.id as string };
  });
}

/**
 * Stores a prompt's launch and its queued run inside the caller's transaction, so that they commit
 * together with the prompt (E7) or not at all. A second launch for a prompt whose launch has not
 * failed is refused by a unique index (`isLiveLaunchViolation`). Returns the launch's id.
 */
export async function insertPromptLaunch(manager: Queryable, input: NewPromptLaunch): Promise<string> {
  await insertLaunchRun(manager, "prompt_tokenize", {
    ...input,
    request: { ...input.request, prompt_id: input.promptId },
  });
  const l = input.launch;
  const [launch] = await manager.query(INSERT_LAUNCH, [
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

/**
 * The launch landed: the launch is confirmed and its listing (or prompt) gets the token's
 * addresses. A prompt reads as tokenized from here on, with the ticker its token was launched with.
 */
export async function markLaunchConfirmed(ds: DataSource, launch: TokenLaunch): Promise<void> {
  await ds.transaction(async (manager) => {
    await manager.query(
      `UPDATE token_launches SET status = 'confirmed', confirmed_at = now(), updated_at = now() WHERE id = $1`,
      [launch.id],
    );
    if (launch.listing_id) {
      await manager.query(
        `UPDATE agent_listings SET status = 'launched', token_address = $2, pool_address = $3, updated_at = now() WHERE id = $1`,
        [launch.listing_id, launch.mint_address, launch.pool_address],
      );
    }
    if (launch.prompt_id) {
      await manager.query(
        `UPDATE prompts SET tokenized_on = true, ticker = $2, token_address = $3, pool_address = $4, updated_at = now() WHERE id = $1`,
        [launch.prompt_id, launch.ticker, launch.mint_address, launch.pool_address],
      );
    }
  });
}

/**
 * The launch failed for good (a confirmed launch is left alone). What it was for must not look
 * half made:
 * - an agent listing becomes `failed`: kept (with the launch row and any signature, for support and
 *   reconciliation) but never shown;
 * - a prompt made for this launch (E7: `tokenized_on` and no token yet, never shown) is deleted and
 *   the daily count it took is given back, so the user can send it again at once; the launch row
 *   stays, its `prompt_id` cleared. A prompt that existed before (E8 turning tokenization on) is
 *   left as it was.
 */
export async function markLaunchFailed(ds: DataSource, launchId: string, message: string): Promise<void> {
  await ds.transaction(async (manager) => {
    const [launch] = rowsOf<{
      listing_id: string | null;
      prompt_id: string | null;
      user_id: string;
      quota_counter: QuotaColumn | null;
      quota_day: string | null;
    }>(
      await manager.query(
        `UPDATE token_launches SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status <> 'confirmed'
         RETURNING listing_id, prompt_id, user_id, quota_counter, to_char(quota_day, 'YYYY-MM-DD') AS quota_day`,
        [launchId, message],
      ),
    );
    if (!launch) return;
    if (launch.listing_id) {
      await manager.query(
        `UPDATE agent_listings SET status = 'failed', updated_at = now() WHERE id = $1 AND status = 'launching'`,
        [launch.listing_id],
      );
    }
    if (launch.prompt_id) {
      const deleted = rowsOf(
        await manager.query(
          `DELETE FROM prompts WHERE id = $1 AND tokenized_on AND token_address IS NULL RETURNING id`,
          [launch.prompt_id],
        ),
      );
      if (deleted.length && launch.quota_counter && launch.quota_day)
        await giveBackCount(manager, launch.user_id, launch.quota_counter, launch.quota_day);
    }
  });
}

/** Gives back one count of a daily counter (never below zero). */
async function giveBackCount(manager: Queryable, userId: string, column: QuotaColumn, day: string): Promise<void> {
  if (!QUOTA_COLUMNS.includes(column)) throw new Error(`Unknown daily counter ${column}`);
  await manager.query(
    `UPDATE daily_usage SET ${column} = GREATEST(${column} - 1, 0) WHERE user_id = $1 AND day = $2::date`,
    [userId, day],
  );
}

/** The launch's listing with the token's addresses, once launched. */
export async function findListing(
  ds: DataSource,
  id: string,
): Promise<{ id: string; status: string; token_address: string | null; pool_address: string | null } | null> {
  const rows = await sql<{ id: string; status: string; token_address: string | null; pool_address: string | null }>(
    ds,
    `SELECT id, status, token_address, pool_address FROM agent_listings WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}
