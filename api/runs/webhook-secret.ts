import type { DataSource } from "typeorm";
import { config } from "../../shared/config";
import { NotFoundError } from "../../shared/errors";
import { readSecretOnce, rotateSecret, type ShownSecret } from "../../shared/webhooks/webhook-secrets";

/** `GET /v1/webhooks/secret`: the account's signing secret, in full only the first time; 404 while it has none. */
export async function showWebhookSecret(ds: DataSource, userId: string): Promise<ShownSecret> {
  const shown = await readSecretOnce(ds, userId);
  if (!shown)
    throw new NotFoundError(
      "The account has no webhook secret yet: its first run given a webhook_url makes one (or POST /v1/webhooks/secret/rotate)",
    );
  return shown;
}

/** `POST /v1/webhooks/secret/rotate`: a new secret, shown once; the old one signs beside it for `WEBHOOK_SECRET_GRACE_MS`. */
export function rotateWebhookSecret(ds: DataSource, userId: string): Promise<ShownSecret> {
  return rotateSecret(ds, userId, config.webhooks.secretGraceMs);
}
