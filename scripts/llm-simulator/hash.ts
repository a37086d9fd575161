import { createHash } from "node:crypto";

/** Hex SHA-1 of `text`: native and fast, and collisions do not matter for a simulator. */
export function hashText(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/** A 32-bit unsigned seed taken from a hex hash, for deterministic choices (enum picks, ...). */
export function seedFromHash(hex: string): number {
  return parseInt(hex.slice(0, 8), 16) >>> 0;
}

/** Body fields that must not change the answer: the simulation controls and the transport mode. */
function ignoredForIdentity(key: string): boolean {
  return key.startsWith("sim_") || key === "stream" || key === "stream_options";
}

/**
 * Identity of a request: hash of its body without `sim_*` fields, `stream` and `stream_options`,
 * so a streamed and a non-streamed call (or a retry with different controls) get the same answer
 * and share one `sim_error_times` counter.
 */
export function requestHash(body: Record<string, unknown>): string {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    if (!ignoredForIdentity(key)) rest[key] = body[key];
  }
  return hashText(JSON.stringify(rest));
}
