import { createHash } from "node:crypto";
import type { ListingKind } from "../../../shared/db/entities/prompt.entity";
import { findDuplicateId } from "../../../shared/db/prompt-store";
import type { Queryable } from "../../../shared/db/sql";
import { PlatformError } from "../../platform-error";

/** The form two texts are compared in: trimmed, whitespace collapsed, case-folded. */
function normaliseText(text: string): string {
  return text.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

/** sha-256 (hex) of a prompt's normalised text: equal hashes are duplicates (prompt creation's duplicate rule). */
export function contentHash(text: string): string {
  return createHash("sha256").update(normaliseText(text), "utf8").digest("hex");
}

/** Prompt creation's duplicate rule: the same text from the same user again. */
export function duplicateError(existingId: string | null): PlatformError {
  return new PlatformError(
    400,
    "Content validation failed",
    "This prompt is a duplicate of one you already published (same text, ignoring case and spacing)",
    { existingId },
    "DUPLICATE_CONTENT",
  );
}

/** The id of the prompt a duplicate error names, or null when `err` is not that error. */
export function duplicateOf(err: unknown): string | null {
  if (!(err instanceof PlatformError) || err.code !== "DUPLICATE_CONTENT") return null;
  const existingId = err.extra.existingId;
  return typeof existingId === "string" ? existingId : null;
}

/**
 * Refuses a text the user already has in a listing of the same kind (another than `exceptId`). The unique index backs
 * this up under concurrency.
 */
export async function assertNotDuplicate(
  db: Queryable,
  userId: string,
  hash: string,
  exceptId: string | null = null,
  kind: ListingKind = "prompt",
): Promise<void> {
  const existingId = await findDuplicateId(db, userId, hash, exceptId, kind);
  if (existingId) throw duplicateError(existingId);
}
