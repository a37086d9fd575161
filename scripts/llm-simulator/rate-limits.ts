import type { OutgoingHttpHeaders } from "node:http";

/** Requests and tokens a key may use per window (a minute, as OpenAI's limits; tests shorten it). */
export interface KeyRateLimit {
  requests?: number;
  tokens?: number;
  /** Default 60,000 ms. */
  windowMs?: number;
}

/** A limit's bucket, kept as the instant it would be whole again (GCRA). */
interface Bucket {
  requestsWhole: number;
  tokensWhole: number;
}

/** What the limits say of one request: the headers every answer carries and, when refused, the wait. */
export interface RateVerdict {
  headers: OutgoingHttpHeaders;
  /** Set when the request is over a limit: milliseconds until it would fit. */
  retryAfterMs?: number;
}

/** A duration as OpenAI writes its `x-ratelimit-reset-*`: `20ms`, `1.5s`, `6m0s`. */
export function formatReset(ms: number): string {
  if (ms < 1_000) return `${Math.ceil(ms)}ms`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms - minutes * 60_000) / 10) / 100;
  return minutes ? `${minutes}m${seconds}s` : `${seconds}s`;
}

/**
 * Rate limits per API key (the request's bearer token), as OpenAI enforces them: each key's
 * requests and tokens (prompt and answer) per window refill steadily; a request over either is
 * refused with 429 and `retry-after` / `retry-after-ms`, and every answer to a limited key carries
 * `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`. A key with no limit gets none of these.
 */
export class RateLimits {
  private readonly limits = new Map<string, KeyRateLimit>();
  private readonly buckets = new Map<string, Bucket>();

  constructor(private fallback: KeyRateLimit | null = null) {}

  /** Sets (or with null removes) a key's limits; the empty key sets every other key's. Its bucket starts whole. */
  set(key: string, limit: KeyRateLimit | null): void {
    if (key === "") this.fallback = limit;
    else if (limit) this.limits.set(key, limit);
    else this.limits.delete(key);
    this.buckets.clear();
  }

  /** Takes a request of `tokens` from `key`'s limits, or tells how long until it fits; null when the key has none. */
  take(key: string, tokens: number, now = performance.now()): RateVerdict | null {
    const limit = this.limits.get(key) ?? this.fallback;
    if (!limit || (!limit.requests && !limit.tokens)) return null;
    const window = limit.windowMs ?? 60_000;
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { requestsWhole: now, tokensWhole: now }));
    const requestsWhole = Math.max(bucket.requestsWhole, now) + (limit.requests ? window / limit.requests : 0);
    const cost = limit.tokens ? Math.min(tokens, limit.tokens) : 0;
    const tokensWhole = Math.max(bucket.tokensWhole, now) + (limit.tokens ? (cost * window) / limit.tokens : 0);
    const over = Math.max(requestsWhole - now - window, tokensWhole - now - window, 0);
    if (over === 0) Object.assign(bucket, { requestsWhole, tokensWhole });
    const headers: OutgoingHttpHeaders = {};
    const describe = (what: string, max: number | undefined, whole: number) => {
      if (!max) return;
      const ahead = Math.max(0, whole - now);
      headers[`x-ratelimit-limit-${what}`] = String(max);
      headers[`x-ratelimit-remaining-${what}`] = String(Math.max(0, Math.floor(max - (ahead * max) / window)));
      headers[`x-ratelimit-reset-${what}`] = formatReset(ahead);
    };
    describe("requests", limit.requests, bucket.requestsWhole);
    describe("tokens", limit.tokens, bucket.tokensWhole);
    if (over === 0) return { headers };
    const wait = Math.ceil(over);
    return {
      headers: { ...headers, "retry-after-ms": String(wait), "retry-after": String(Math.ceil(wait / 1_000)) },
      retryAfterMs: wait,
    };
  }
}
