import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import { documentRoutes } from "../../../openapi/operation";
import type { V1State } from "../../../http/state";
import { validateBody } from "../../../http/validate";
import { marketplaceAgentsResponseSchema } from "../../../schemas/marketplace-response.schema";
import { listMarketplacePrompts } from "../../../marketplace/agent-listings";
import { marketplaceAgentsSchema, type MarketplaceAgentsRequest } from "../../../schemas/marketplace-request.schema";

/** `POST /v1/marketplace/agents`: the newest approved marketplace prompts. */
export function marketplaceRouter(deps: Pick<ApiDeps, "ds">): Router {
  const router = new Router<V1State>();
  router.post(
    "/v1/marketplace/agents",
    validateBody<MarketplaceAgentsRequest>(marketplaceAgentsSchema),
    async (ctx) => {
      const { number_of_items } = ctx.state.body;
      ctx.body = await listMarketplacePrompts(deps.ds, ctx.state.auth, number_of_items);
    },
  );
  return documentRoutes(router, {
    method: "post",
    path: "/v1/marketplace/agents",
    summary: "The newest approved marketplace prompts",
    tags: ["Marketplace"],
    access: "apiKey",
    request: {
      body: marketplaceAgentsSchema,
      examples: { default: { summary: "Ten newest", value: { number_of_items: 10 } } },
    },
    responses: {
      200: {
        description: "Approved prompts, newest first, and how many there are in all",
        body: marketplaceAgentsResponseSchema,
      },
    },
  });
}
