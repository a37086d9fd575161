import { createHmac } from "node:crypto";
import { config } from "../../config";

const ids = new Map<string, string>();

/**
 * The name a provider key goes by in Redis and in the limiter: an HMAC of the key under
 * `SECRETS_KEY`, so the key itself never reaches Redis, logs or metrics, and a name seen there
 * cannot be checked against a guessed key without the service's secret.
 */
export function providerKeyId(apiKey: string): string {
  let id = ids.get(apiKey);
  if (!id) {
    id = createHmac("sha256", config.secretsKey).update(`provider-key\0${apiKey}`).digest("hex").slice(0, 24);
    ids.set(apiKey, id);
  }
  return id;
}
