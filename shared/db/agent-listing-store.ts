import type { DataSource } from "typeorm";
import type { AgentListingRow } from "./entities/agent-listing.entity";
import { sql, type Queryable } from "./sql";
import { isUuid } from "./uuid";

/** What an agent listing starts with when it is listed together with its token launch. */
export type NewAgentListing = Pick<
  AgentListingRow,
  "user_id" | "name" | "description" | "ticker" | "code" | "metadata" | "image_url"
>;

/** Stores a listing as `launching` (never shown until its token launched) and returns its id. */
export async function insertLaunchingListing(tx: Queryable, listing: NewAgentListing): Promise<string> {
  const rows = await sql<{ id: string }>(
    tx,
    `INSERT INTO agent_listings (user_id, name, description, ticker, code, metadata, image_url, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'launching') RETURNING id`,
    [
      listing.user_id,
      listing.name,
      listing.description,
      listing.ticker,
      listing.code,
      JSON.stringify(listing.metadata),
      listing.image_url,
    ],
  );
  return rows[0].id;
}

/** The listing's token launched: it is shown from here on, with the token's addresses. */
export async function markListingLaunched(
  tx: Queryable,
  id: string,
  token: { mintAddress: string | null; poolAddress: string | null },
): Promise<void> {
  await sql(
    tx,
    `UPDATE agent_listings SET status = 'launched', token_address = $2, pool_address = $3, updated_at = now() WHERE id = $1`,
    [id, token.mintAddress, token.poolAddress],
  );
}

/** The listing's launch failed: kept for support and reconciliation, never shown. */
export async function markListingFailed(tx: Queryable, id: string): Promise<void> {
  await sql(
    tx,
    `UPDATE agent_listings SET status = 'failed', updated_at = now() WHERE id = $1 AND status = 'launching'`,
    [id],
  );
}

/** An agent listing as its page shows it. */
export type AgentPageRecord = Pick<
  AgentListingRow,
  "id" | "name" | "description" | "ticker" | "image_url" | "token_address" | "pool_address" | "created_at"
> & { status: "launched" };

// Only a listing whose launch succeeded has a token behind it, and a page: not one still launching, nor a failed one.
const FIND_LAUNCHED = `
  SELECT id, name, description, ticker, image_url, token_address, pool_address, status, created_at
    FROM agent_listings
   WHERE id = $1::uuid AND status = 'launched'`;

/** The listing with this id, or null when it is unknown or its launch has not succeeded. */
export async function findLaunchedListing(ds: DataSource, id: string): Promise<AgentPageRecord | null> {
  if (!isUuid(id)) return null;
  const rows = await sql<AgentPageRecord>(ds, FIND_LAUNCHED, [id]);
  return rows[0] ?? null;
}
