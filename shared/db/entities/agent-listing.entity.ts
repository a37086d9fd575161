import { EntitySchema } from "typeorm";

type AgentListingStatus = "launching" | "launched" | "failed";

/** A row of `agent_listings`: an agent listed together with its token launch (`POST /api/token/launch`). */
export interface AgentListingRow {
  id: string;
  user_id: string;
  name: string;
  description: string;
  ticker: string;
  code: string;
  metadata: Record<string, unknown>;
  image_url: string | null;
  /** Shown only once `launched`; a `failed` listing is kept for support but never shown. */
  status: AgentListingStatus;
  token_address: string | null;
  pool_address: string | null;
  created_at: Date;
  updated_at: Date;
}

export const AgentListingEntity = new EntitySchema<AgentListingRow>({
  name: "AgentListing",
  tableName: "agent_listings",
  columns: {
    id: { type: "uuid", primary: true, generated: "uuid" },
    user_id: { type: "uuid" },
    name: { type: "text" },
    description: { type: "text" },
    ticker: { type: "text" },
    code: { type: "text" },
    metadata: { type: "jsonb", default: () => "'{}'" },
    image_url: { type: "text", nullable: true },
    status: { type: "text", default: "launching" },
    token_address: { type: "text", nullable: true },
    pool_address: { type: "text", nullable: true },
    created_at: { type: "timestamptz", createDate: true },
    updated_at: { type: "timestamptz", updateDate: true },
  },
});
