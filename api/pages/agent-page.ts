import type { DataSource } from "typeorm";
import { sql } from "../../shared/db/sql";
import { isUuid } from "../../shared/db/uuid";

/** An agent listing (made by a token launch) as its page shows it. */
export interface AgentPageRecord {
  id: string;
  name: string;
  description: string;
  ticker: string;
  image_url: string | null;
  token_address: string | null;
  pool_address: string | null;
  status: "launched";
  created_at: Date;
}

// Only a listing whose launch succeeded has a token behind it, and a page: not one still launching, nor a failed one.
const FIND_LISTING = `
  SELECT id, name, description, ticker, image_url, token_address, pool_address, status, created_at
    FROM agent_listings
   WHERE id = $1::uuid AND status = 'launched'`;

/** The listing with this id, or null when it is unknown or its launch has not succeeded. */
export async function findAgentListingForPage(ds: DataSource, id: string): Promise<AgentPageRecord | null> {
  if (!isUuid(id)) return null;
  const rows = await sql<AgentPageRecord>(ds, FIND_LISTING, [id]);
  return rows[0] ?? null;
}
