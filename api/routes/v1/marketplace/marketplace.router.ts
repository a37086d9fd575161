import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import { validateBody } from "../../../middleware/validate";
import { listMarketplacePrompts } from "../../../services/marketplace-listing.service";
import { marketplaceAgentsSchema, type MarketplaceAgentsRequest } from "./marketplace.schema";

/** E4 `POST /v1/marketplace/agents`: the newest approved marketplace prompts. */
export function marketplaceRouter(deps: Pick<ApiDeps, "ds">): Router {
  const router = new Router();
  router.post("/v1/marketplace/agents", validateBody(marketplaceAgentsSchema), async (ctx) => {
    const { number_of_items } = ctx.state.body as MarketplaceAgentsRequest;
    ctx.body = await listMarketplacePrompts(deps.ds, ctx.state.auth, number_of_items);
  });
  return router;
}
