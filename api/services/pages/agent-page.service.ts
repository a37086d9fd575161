import type { DataSource } from "typeorm";
import { sql } from "../../../shared/db/sql";
import { isUuid } from "../uuid";

/** An agent listing (made by a token launch) as its page shows it. */
export interface AgentPageRecord {
  id: string;
  name: string;
  description: string;
  ticker: string;
  image_url: string | null;
  token_address: string | null;
  pool_address: string | null;
  status: "launching" | "launched";
  created_at: Date;
}

// A listing whose launch failed has no token behind it: it has no page.
const FIND_LISTING = `
  SELECT id, name, description, ticker, image_url, token_address, pool_address, status, created_at
    FROM agent_listings
   WHERE id = $1::uuid AND status <> 'failed'`;

/** The listing with this id, or null when it is unknown or its launch failed. */
export async function findAgentListingForPage(ds: DataSource, id: string): Promise<AgentPageRecord | null> {
  if (!isUuid(id)) return null;
  const rows = await sql<AgentPageRecord>(ds, FIND_LISTING, [id]);
  return rows[0] ?? null;
}
