import type { AgentPageRecord } from "../../shared/db/agent-listing-store";
import { pageDate, storedImagePath, type PageDate } from "./page-format";

/** What the agent listing page template prints. */
export interface AgentPageView {
  id: string;
  name: string;
  description: string;
  ticker: string;
  imageUrl: string | null;
  tokenAddress: string | null;
  poolAddress: string | null;
  status: string;
  created: PageDate;
}

export function presentAgentPage(a: AgentPageRecord): AgentPageView {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    ticker: a.ticker,
    imageUrl: storedImagePath(a.image_url),
    tokenAddress: a.token_address,
    poolAddress: a.pool_address,
    status: a.status,
    created: pageDate(a.created_at),
  };
}
