/** One limit as a provider's answer reports it (`x-ratelimit-*-requests` or `-tokens`). */
export interface ReportedWindow {
  limit: number;
  remaining: number;
  /** Milliseconds until the window is whole again. */
  resetMs: number;
}

/** What one answer says of its key's limits; empty when it says nothing. */
export interface ReportedLimits {
  requests?: ReportedWindow;
  tokens?: ReportedWindow;
  /** The pause a 429 asked for (`retry-after-ms`, else `retry-after` in seconds), in milliseconds. */
  retryAfterMs?: number;
}

/** A provider's pause can be long, but an hour is the most a hostile or broken header can park a key. */
const MAX_PAUSE_MS = 3_600_000;

const UNITS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };

/**
 * A reset duration as OpenAI writes it (`20ms`, `1s`, `6m0s`, `1m30.5s`; a bare number is seconds),
 * in milliseconds; undefined when it is none of those.
 */
export function parseResetDuration(text: string | null | undefined): number | undefined {
  if (!text) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(Number(trimmed) * 1_000, MAX_PAUSE_MS);
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(trimmed)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) ms += Number(amount) * UNITS[unit];
  return Math.min(Math.ceil(ms), MAX_PAUSE_MS);
}

const wholeNumber = (text: string | null): number | undefined => {
  if (text === null || !/^\d{1,12}$/.test(text.trim())) return undefined;
  return Number(text.trim());
};

function windowOf(headers: Headers, what: "requests" | "tokens"): ReportedWindow | undefined {
  const limit = wholeNumber(headers.get(`x-ratelimit-limit-${what}`));
  const remaining = wholeNumber(headers.get(`x-ratelimit-remaining-${what}`));
  if (!limit || remaining === undefined) return undefined;
  const resetMs = parseResetDuration(headers.get(`x-ratelimit-reset-${what}`)) ?? 0;
  return { limit, remaining: Math.min(remaining, limit), resetMs };
}

function retryAfterOf(headers: Headers): number | undefined {
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.has("retry-after-ms") && Number.isFinite(ms) && ms > 0) return Math.min(Math.ceil(ms), MAX_PAUSE_MS);
  const seconds = Number(headers.get("retry-after"));
  if (headers.has("retry-after") && Number.isFinite(seconds) && seconds > 0)
    return Math.min(Math.ceil(seconds * 1_000), MAX_PAUSE_MS);
  return undefined;
}

/**
 * What a provider's answer reports of its key's limits: OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`
 * on every answer, and on a 429 its `retry-after-ms` / `retry-after`. Malformed values count as absent.
 */
export function reportedLimits(status: number, headers: Headers): ReportedLimits {
  const reported: ReportedLimits = {};
  const requests = windowOf(headers, "requests");
  const tokens = windowOf(headers, "tokens");
  if (requests) reported.requests = requests;
  if (tokens) reported.tokens = tokens;
  const pause = status === 429 ? retryAfterOf(headers) : undefined;
  if (pause) reported.retryAfterMs = pause;
  return reported;
}

/** The shortest and longest window a learned limit is taken to have. */
const WINDOW_BOUNDS = { min: 100, max: MAX_PAUSE_MS };

/**
 * The length of a key's window as one report shows it, in milliseconds: the provider refills its
 * bucket steadily, so `limit − remaining` units come back in `resetMs`, and the whole `limit` in
 * `resetMs × limit / (limit − remaining)`. A report with nothing used says nothing of it: undefined.
 */
export function learnedWindowMs(window: ReportedWindow): number | undefined {
  const used = window.limit - window.remaining;
  if (used <= 0 || window.resetMs <= 0) return undefined;
  const ms = (window.resetMs * window.limit) / used;
  return Math.round(Math.min(WINDOW_BOUNDS.max, Math.max(WINDOW_BOUNDS.min, ms)));
}
