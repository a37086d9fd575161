import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { config } from "../config";

const PREFIX = "enc:v1:";

/** The 32-byte AES key from `SECRETS_KEY` (any string; hashed to 32 bytes). */
function key(): Buffer {
  return createHash("sha256").update(config.secretsKey, "utf8").digest();
}

/** Encrypts a secret (AES-256-GCM) into a self-describing string: `enc:v1:<iv>:<tag>:<data>`. */
export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${data.toString("base64")}`;
}

export function isSealed(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(PREFIX);
}

/** Decrypts a sealed secret; anything that is not sealed is returned as it is. */
export function unsealSecret(value: string): string {
  if (!isSealed(value)) return value;
  const [iv, tag, data] = value.slice(PREFIX.length).split(":");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
}
