import { Webhook } from "standardwebhooks";

/** The three headers Standard Webhooks names, which a receiver verifies a delivery with. */
export interface WebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * Signs a delivery's body as Standard Webhooks says, with the reference library: `v1,<base64>`
 * per secret, space-separated, so during a rotation a receiver holding either secret verifies it.
 */
export function signDelivery(secrets: readonly string[], messageId: string, at: Date, body: string): WebhookHeaders {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(" "),
  };
}
