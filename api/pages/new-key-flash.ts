import { seal, unseal } from "../../shared/secrets/sealed";

/** How long a created key waits to be shown; after that it is simply never shown. */
const SHOW_WITHIN_MS = 5 * 60_000;

interface Flash {
  userId: string;
  keyId: string;
  key: string;
  until: number;
}

/**
/** Sealed for one purpose and one user: a flash is useless to anyone else, and no other ciphertext opens here. */
function bindingFor(userId: string) {
  return { purpose: "new-key-flash" as const, user: userId };
}

/**
 * A newly created key, sealed (AES-256-GCM, this purpose's key from `SECRETS_KEY`) for the browser to carry from the
 * form's POST to the page that shows it once (post/redirect/get: reloading that page must neither
 * show it again nor create another key). The key is stored nowhere on the server.
 */
export function sealNewKey(userId: string, keyId: string, key: string): string {
  const flash: Flash = { userId, keyId, key, until: Date.now() + SHOW_WITHIN_MS };
  return Buffer.from(seal(JSON.stringify(flash), bindingFor(userId))).toString("base64url");
}

/** The key in a sealed flash, when it is intact, fresh and was made for this user; else null. */
export function openNewKey(value: string | undefined, userId: string): { keyId: string; key: string } | null {
  if (!value) return null;
  try {
    const sealed = Buffer.from(value, "base64url").toString("utf8");
    const flash = JSON.parse(unseal(sealed, bindingFor(userId))) as Flash;
    if (flash.userId !== userId || !(flash.until > Date.now())) return null;
    return { keyId: flash.keyId, key: flash.key };
  } catch {
    return null; // tampered, truncated, made for another user or purpose, or sealed with another SECRETS_KEY
  }
}
