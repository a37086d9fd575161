import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { config } from "../config";

const PREFIX = "enc:v2:";

/**
 * What a sealed value is for. Each purpose has its own AES key, derived from `SECRETS_KEY` with
 * HKDF, so a ciphertext made for one purpose cannot be opened for another even before its
 * associated data is checked.
 */
export type SealPurpose =
  "agent-credential" | "marketplace-prompt" | "launch-key" | "new-key-flash" | "oidc-sign-in" | "webhook-secret";

/**
 * The purpose and the context a value was sealed in (run id, user id, where in the request...).
 * It is the AES-GCM associated data: opening needs exactly the same binding, so a ciphertext copied
 * to another run, user or field is useless there.
 */
export interface SealBinding {
  purpose: SealPurpose;
  [context: string]: string;
}

const keys = new Map<SealPurpose, Buffer>();

/** The purpose's 32-byte AES key (HKDF-SHA256 of `SECRETS_KEY`), derived once per process. */
function keyFor(purpose: SealPurpose): Buffer {
  let key = keys.get(purpose);
  if (!key) {
    key = Buffer.from(
      hkdfSync(
        "sha256",
        Buffer.from(config.secretsKey, "utf8"),
        Buffer.from("apiary sealed values", "utf8"),
        `apiary/${purpose}`,
        32,
      ),
    );
    keys.set(purpose, key);
  }
  return key;
}

/** The binding as bytes, independent of the order its fields were written in. */
function associatedData(binding: SealBinding): Buffer {
  const sorted = Object.keys(binding)
    .sort()
    .map((field) => [field, binding[field]]);
  return Buffer.from(JSON.stringify(sorted), "utf8");
}

/** Encrypts `plain` (AES-256-GCM) for one purpose and context: `enc:v2:<iv>:<tag>:<data>`. */
export function seal(plain: string, binding: SealBinding): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(binding.purpose), iv);
  cipher.setAAD(associatedData(binding));
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${data.toString("base64")}`;
}

/** Raised for anything that is not a value sealed with exactly this binding; never carries the value. */
export class SealedValueError extends Error {
  constructor() {
    super("The sealed value could not be opened");
  }
}

/**
 * Decrypts a value `seal` made with the same binding. Only the places that sealed a value call
 * this, on values they stored themselves: a value that came from a client is never opened.
 */
export function unseal(sealed: string, binding: SealBinding): string {
  const parts = sealed.startsWith(PREFIX) ? sealed.slice(PREFIX.length).split(":") : [];
  if (parts.length !== 3) throw new SealedValueError();
  try {
    const [iv, tag, data] = parts.map((part) => Buffer.from(part, "base64"));
    const decipher = createDecipheriv("aes-256-gcm", keyFor(binding.purpose), iv, { authTagLength: 16 });
    decipher.setAAD(associatedData(binding));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
  } catch {
    throw new SealedValueError();
  }
}
