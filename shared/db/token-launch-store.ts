import type { DataSource, EntityManager } from "typeorm";
import { sql } from "./sql";

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

export interface NewListingLaunch {
  runId: string;
  userId: string;
  apiKeyId: string | null;
  listing: { name: string; description: string; ticker: string; imageUrl: string | null; code: string; metadata: Record<string, unknown> };
  launch: { network: string; launcher: string; creatorWallet: string; quoteMint: "SOL" | "USDC"; feeSelection: "market" | "frenzy" };
  /** The run's stored request (no secrets). */
  request: unknown;
}

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
      [input.userId, input.listing.name, input.listing.description, input.listing.ticker, input.listing.code, JSON.stringify(input.listing.metadata), input.listing.imageUrl],
    );
    await manager.query(
      `INSERT INTO runs (id, job_id, kind, api_key_id, user_id, status, request) VALUES ($1::uuid, $1::text, 'token_launch', $2, $3, 'queued', $4)`,
      [input.runId, input.apiKeyId, input.userId, JSON.stringify({ ...(input.request as object), listing_id: listing.id })],
    );
    const [launch] = await manager.query(
      `INSERT INTO token_launches (run_id, user_id, listing_id, network, launcher, creator_wallet, name, ticker, image_url, quote_mint, fee_selection)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        input.runId, input.userId, listing.id, input.launch.network, input.launch.launcher, input.launch.creatorWallet,
        input.listing.name, input.listing.ticker, input.listing.imageUrl, input.launch.quoteMint, input.launch.feeSelection,
      ],
    );
    return { listingId: listing.id as string, launchId: launch.id as string };
  });
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

/** The launch landed: the launch is confirmed and its listing (or prompt) gets the token's addresses. */
export async function markLaunchConfirmed(ds: DataSource, launch: TokenLaunch): Promise<void> {
  await ds.transaction(async (manager) => {
    await manager.query(`UPDATE token_launches SET status = 'confirmed', confirmed_at = now(), updated_at = now() WHERE id = $1`, [launch.id]);
    if (launch.listing_id) {
      await manager.query(
        `UPDATE agent_listings SET status = 'launched', token_address = $2, pool_address = $3, updated_at = now() WHERE id = $1`,
        [launch.listing_id, launch.mint_address, launch.pool_address],
      );
    }
    if (launch.prompt_id) {
      await manager.query(`UPDATE prompts SET token_address = $2, pool_address = $3, updated_at = now() WHERE id = $1`, [
        launch.prompt_id, launch.mint_address, launch.pool_address,
      ]);
    }
  });
}

/**
 * The launch failed for good. Its listing becomes `failed`: kept (with the launch row and any
 * signature, for support and reconciliation) but never shown, so no half-made listing is visible.
 */
export async function markLaunchFailed(ds: DataSource, launch: Pick<TokenLaunch, "id" | "listing_id">, message: string): Promise<void> {
  await ds.transaction(async (manager) => {
    await manager.query(`UPDATE token_launches SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status <> 'confirmed'`, [launch.id, message]);
    if (launch.listing_id) {
      await manager.query(`UPDATE agent_listings SET status = 'failed', updated_at = now() WHERE id = $1 AND status = 'launching'`, [launch.listing_id]);
    }
  });
}

/** The launch's listing with the token's addresses, once launched. */
export async function findListing(ds: DataSource, id: string): Promise<{ id: string; status: string; token_address: string | null; pool_address: string | null } | null> {
  const rows = await sql<{ id: string; status: string; token_address: string | null; pool_address: string | null }>(
    ds,
    `SELECT id, status, token_address, pool_address FROM agent_listings WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}
