import type {
  RateLimitOutcome,
  RateLimitState,
  RateWindow,
  Refusal,
  TierLimits,
  WindowState,
} from "../limits/rate-limiter";

/** The `X-RateLimit-*` headers of a response. `X-RateLimit-Reset` is seconds until the minute window resets. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const { minute, hour, day } = state.windows;
  return {
    "X-RateLimit-Limit-Minute": String(minute.limit),
    "X-RateLimit-Remaining-Minute": String(minute.remaining),
    "X-RateLimit-Limit-Hour": String(hour.limit),
    "X-RateLimit-Remaining-Hour": String(hour.remaining),
    "X-RateLimit-Limit-Day": String(day.limit),
    "X-RateLimit-Remaining-Day": String(day.remaining),
    "X-RateLimit-Reset": String(Math.ceil(minute.resetMs / 1_000)),
    "X-RateLimit-Tier": state.tier,
  };
}

/** The limit headers that need no Redis answer (used when Redis is down). */
export function staticRateLimitHeaders(tier: string, limits: TierLimits): Record<string, string> {
  return {
    "X-RateLimit-Limit-Minute": String(limits.perMinute),
    "X-RateLimit-Limit-Hour": String(limits.perHour),
    "X-RateLimit-Limit-Day": String(limits.perDay),
    "X-RateLimit-Tier": tier,
  };
}

/**
 * A slot frees when one of the client's own streams or waits ends, which the service cannot
 * foresee: 2 s lets an SDK's automatic retries (two by default) find a slot a short run freed,
 * without a refused client coming back at once.
 */
const OPEN_REQUEST_RETRY_AFTER_S = 2;

function resetMsOf(refusal: Refusal): number {
  if (refusal.reason === "open-requests") return OPEN_REQUEST_RETRY_AFTER_S * 1_000;
  return refusal.reason === "window" ? refusal.state.resetMs : refusal.resetMs;
}

function money(value: number): string {
  return `$${Number(value.toFixed(6))}`;
}

/** A refusal by the windows or the spend: one that says when it clears. */
type LimitRefusal = Exclude<Refusal, { reason: "open-requests" }>;

function reasonOf(refusal: LimitRefusal, tier: string): string {
  if (refusal.reason === "spend") {
    return refusal.measure === "tokens"
      ? `Daily token limit reached: the account has used ${refusal.spent} of the ${refusal.ceiling} tokens its runs may use per UTC day (${tier} tier); no new run starts before midnight UTC`
      : `Daily cost limit reached: the account has spent ${money(refusal.spent)} of the ${money(refusal.ceiling)} its runs may cost per UTC day (${tier} tier); no new run starts before midnight UTC`;
  }
  const { state, window, points, scope } = refusal;
  const whose = scope === "key" ? `for the ${tier} tier` : `for all keys of the account together (${tier} tier)`;
  let reason = `Rate limit exceeded: ${state.limit} requests per ${window} ${whose}`;
  if (points > state.limit)
    reason += `; this request counts ${points} (one per batch item), more than the window ever allows: send fewer items at once`;
  else if (points > 1) reason += `; this request counts ${points} (one per batch item) and ${state.remaining} remain`;
  return reason;
}

/**
 * Why a request was refused: the reason that clears last (waiting for it clears every other one
 * too), the message naming it, and `Retry-After` in whole seconds (at least 1). A full
 * open-request cap comes alone (it outranks the rest) and has a wait of its own.
 */
export function describeRefusal(outcome: RateLimitOutcome): { refusal: Refusal; retryAfterS: number; message: string } {
  const refusal = outcome.refusals.reduce((a, b) => (resetMsOf(b) > resetMsOf(a) ? b : a));
  if (refusal.reason === "open-requests") {
    const { scope, limit, tier } = refusal;
    const whose =
      scope === "key" ? `per API key (${tier} tier)` : `for all keys of the account together (${tier} tier)`;
    const retryAfterS = OPEN_REQUEST_RETRY_AFTER_S;
    const message = `Too many open requests: at most ${limit} streaming responses and synchronous run requests still waiting ${whose}; wait for one to end, send with Prefer: respond-async, or retry in ${retryAfterS} s`;
    return { refusal, retryAfterS, message };
  }
  const retryAfterS = Math.max(1, Math.ceil(resetMsOf(refusal) / 1_000));
  return { refusal, retryAfterS, message: `${reasonOf(refusal, outcome.state.tier)}; retry in ${retryAfterS} s` };
}

/**
 * When a window of the key's or the account's is used up (as of `state`), so the key's next request
 * is refused whatever it costs: the reason (as `describeRefusal` words it) and how long it holds.
 */
export function describeUsedUp(state: RateLimitState): { reason: string; resetMs: number } | null {
  const usedUp: LimitRefusal[] = [];
  for (const scope of ["key", "account"] as const) {
    for (const [window, w] of Object.entries(state.scopes[scope]) as [RateWindow, WindowState][]) {
      if (w.remaining === 0) usedUp.push({ reason: "window", scope, window, points: 1, state: w });
    }
  }
  if (usedUp.length === 0) return null;
  const last = usedUp.reduce((a, b) => (resetMsOf(b) > resetMsOf(a) ? b : a));
  return { reason: reasonOf(last, state.tier), resetMs: resetMsOf(last) };
}
