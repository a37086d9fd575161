import type { DataSource } from "typeorm";
import { listApprovedPrompts } from "../../shared/db/prompt-listing-store";
import { presentMarketplacePrompt, type MarketplacePrompt } from "./prompt.presenter";
import { isoWithoutZone } from "./timestamp";

/** The marketplace listing's answer. */
export interface MarketplaceListing {
  prompts: MarketplacePrompt[];
  total_count: number;
  status: "success";
  timestamp: string;
}

/** `POST /v1/marketplace/agents`: the `limit` newest approved prompts and how many approved prompts there are in all. */
export async function listMarketplacePrompts(
  ds: DataSource,
  viewer: { userId: string },
  limit: number,
): Promise<MarketplaceListing> {
  const { rows, total } = await listApprovedPrompts(ds, limit);
  return {
    prompts: rows.map((row) => presentMarketplacePrompt(row, viewer.userId)),
    total_count: total,
    status: "success",
    timestamp: isoWithoutZone(),
  };
}
