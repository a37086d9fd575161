import type { Middleware } from "koa";
import type { KeyOwner } from "../../shared/auth/api-keys";
import { AppError } from "../../shared/errors";
import { countRateLimitRefusal } from "../../shared/metrics/web";
import { describeUsedUp, rateLimitHeaders } from "./rate-limit-reply";
import type { RateLimitState } from "../limits/rate-limiter";
import type { V1State } from "./state";

/** A key one of whose windows is used up: until when, why, and its standing when that was seen. */
interface Exhausted {
  untilMs: number;
  reason: string;
  state: RateLimitState;
  seenAtMs: number;
  /** The key's tier then: a key moved to another tier has other limits, so the entry no longer holds. */
  tier: string;
}

/** The key a verdict was about. */
type Subject = Pick<KeyOwner, "apiKeyId" | "tier">;

/** Past this many remembered keys, expired entries are swept before another is added. */
const SWEEP_ABOVE = 10_000;

/**
 * Keys whose request windows this process has seen used up, until those windows reset. The limiter
 * runs after the body is read (a batch counts one point per item), so without this a key over its
 * limit could still make the service read and parse a large body on every request. A window used
 * up stays used up until it resets, so refusing such a key early gives the same answer the limiter
 * would. Each web process learns it from its own last verdict; nothing is shared or persisted.
 */
export class ExhaustedKeys {
  private readonly keys = new Map<string, Exhausted>();

  /**
   * Remembers a key when a verdict leaves one of its windows (or its account's) used up, admitted
   * or not. A batch refused only for being larger than what is left is not remembered: a smaller
   * request may still fit.
   */
  note(subject: Subject, state: RateLimitState): void {
    const usedUp = describeUsedUp(state);
    if (!usedUp) return;
    if (this.keys.size >= SWEEP_ABOVE) this.sweep(Date.now());
    const now = Date.now();
    this.keys.set(subject.apiKeyId, {
      untilMs: now + usedUp.resetMs,
      reason: usedUp.reason,
      state,
      seenAtMs: now,
      tier: subject.tier,
    });
  }

  /** The refusal a key still has coming, or null. */
  check(subject: Subject): Exhausted | null {
    const entry = this.keys.get(subject.apiKeyId);
    if (!entry) return null;
    if (entry.untilMs > Date.now() && entry.tier === subject.tier) return entry;
    this.keys.delete(subject.apiKeyId);
    return null;
  }

  private sweep(now: number): void {
    for (const [keyId, entry] of this.keys) if (entry.untilMs <= now) this.keys.delete(keyId);
  }
}

/** Answers 429 before the body is read to a key `ExhaustedKeys` knows is over its limit (runs after authentication). */
export function refuseExhaustedKeys(exhausted: ExhaustedKeys): Middleware<V1State> {
  return async (ctx, next) => {
    const entry = exhausted.check(ctx.state.auth);
    if (!entry) return next();
    const now = Date.now();
    const retryAfterS = Math.max(1, Math.ceil((entry.untilMs - now) / 1_000));
    // Refused requests count nowhere, so the standing seen then is the standing now, but for time.
    const elapsedMs = now - entry.seenAtMs;
    const windows = Object.fromEntries(
      Object.entries(entry.state.windows).map(([w, s]) => [w, { ...s, resetMs: Math.max(0, s.resetMs - elapsedMs) }]),
    );
    ctx.set(rateLimitHeaders({ ...entry.state, windows: windows as RateLimitState["windows"] }));
    ctx.set("Retry-After", String(retryAfterS));
    countRateLimitRefusal("exhausted_key");
    throw new AppError(429, "RATE_LIMITED", `${entry.reason}; retry in ${retryAfterS} s`);
  };
}
