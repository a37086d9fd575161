/**
 * Reads RFC 7240 `Prefer`: `respond-async` (answer 202 at once) and `wait=<seconds>` (how long the
 * client is willing to wait for a synchronous answer).
 */
export function parsePrefer(header: string | undefined): { respondAsync: boolean; waitMs: number | null } {
  const tokens = (header ?? "").split(",").map((t) => t.trim().toLowerCase());
  const wait = tokens.map((t) => /^wait\s*=\s*(\d+(?:\.\d+)?)$/.exec(t)).find(Boolean);
  return { respondAsync: tokens.includes("respond-async"), waitMs: wait ? Math.round(Number(wait[1]) * 1_000) : null };
}
