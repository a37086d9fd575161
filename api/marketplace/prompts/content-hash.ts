import { createHash } from "node:crypto";

/** The form two texts are compared in: trimmed, whitespace collapsed, case-folded. */
export function normaliseText(text: string): string {
  return text.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

/** sha-256 (hex) of a prompt's normalised text: equal hashes are duplicates. */
export function contentHash(text: string): string {
  return createHash("sha256").update(normaliseText(text), "utf8").digest("hex");
}
