import Router from "@koa/router";
import type { ApiDeps } from "../../../deps";
import type { V1State } from "../../../http/state";
import { documentRoutes, type Operation } from "../../../openapi/operation";
import { apiError } from "../../../openapi/shared-parts";
import { rotateWebhookSecret, showWebhookSecret } from "../../../runs/webhook-secret";
import { webhookSecretSchema } from "../../../schemas/webhook-response.schema";

const webhookOperations: Operation[] = [
  {
    method: "get",
    path: "/v1/webhooks/secret",
    summary: "Your account's webhook signing secret",
    description:
      "The secret every webhook of the account is signed with (Standard Webhooks, `whsec_…`), made by the account's first run given a `webhook_url`: shown in full only the first time it is read, masked afterwards. Verify deliveries with it (docs/webhooks.md).",
    tags: ["Webhooks"],
    access: "apiKey",
    responses: {
      200: { description: "The secret, in full only once", body: webhookSecretSchema },
      404: apiError("The account has no secret yet: its first run given a `webhook_url` makes one (`NOT_FOUND`)"),
    },
  },
  {
    method: "post",
    path: "/v1/webhooks/secret/rotate",
    summary: "Rotate the webhook signing secret",
    description:
      "Makes a new secret, shown in full in this answer only. The one it replaces keeps signing beside it (both signatures in `webhook-signature`) until `previous_expires_at`, so receivers can switch without losing a delivery.",
    tags: ["Webhooks"],
    access: "apiKey",
    responses: { 200: { description: "The new secret, shown once", body: webhookSecretSchema } },
  },
];

/** The account's webhook signing secret: read once, rotate. */
export function webhooksRouter(deps: Pick<ApiDeps, "ds">): Router {
  const router = new Router<V1State>();
  router.get("/v1/webhooks/secret", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = await showWebhookSecret(deps.ds, ctx.state.auth.userId);
  });
  router.post("/v1/webhooks/secret/rotate", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = await rotateWebhookSecret(deps.ds, ctx.state.auth.userId);
  });
  return documentRoutes(router, ...webhookOperations);
}
