import { isSealed, sealSecret, unsealSecret } from "../../../shared/secrets/sealed";

/** How long a created key waits to be shown; after that it is simply never shown. */
const SHOW_WITHIN_MS = 5 * 60_000;

interface Flash {
  userId: string;
  keyId: string;
  key: string;
  until: number;
}

/**
 * A newly created key, sealed (AES-256-GCM with `SECRETS_KEY`) for the browser to carry from the
 * form's POST to the page that shows it once (post/redirect/get: reloading that page must neither
 * show it again nor create another key). The key is stored nowhere on the server.
 */
export function sealNewKey(userId: string, keyId: string, key: string): string {
  const flash: Flash = { userId, keyId, key, until: Date.now() + SHOW_WITHIN_MS };
  return Buffer.from(sealSecret(JSON.stringify(flash))).toString("base64url");
}

/** The key in a sealed flash, when it is intact, fresh and was made for this user; else null. */
export function openNewKey(value: string | undefined, userId: string): { keyId: string; key: string } | null {
  if (!value) return null;
  try {
    const sealed = Buffer.from(value, "base64url").toString("utf8");
    if (!isSealed(sealed)) return null; // plain text was never made here
    const flash = JSON.parse(unsealSecret(sealed)) as Flash;
    if (flash.userId !== userId || !(flash.until > Date.now())) return null;
    return { keyId: flash.keyId, key: flash.key };
  } catch {
    return null; // tampered, truncated or sealed with another SECRETS_KEY
  }
}
