import type { DataSource } from "typeorm";
import { config } from "../../shared/config";
import { readSecretOnce, rotateSecret, type ShownSecret } from "../../shared/webhooks/webhook-secrets";

/** `GET /v1/webhooks/secret`: the account's signing secret, in full only the first time (made now if it has none). */
export function showWebhookSecret(ds: DataSource, userId: string): Promise<ShownSecret> {
  return readSecretOnce(ds, userId);
}

/** `POST /v1/webhooks/secret/rotate`: a new secret, shown once; the old one signs beside it for `WEBHOOK_SECRET_GRACE_MS`. */
export function rotateWebhookSecret(ds: DataSource, userId: string): Promise<ShownSecret> {
  return rotateSecret(ds, userId, config.webhooks.secretGraceMs);
}
