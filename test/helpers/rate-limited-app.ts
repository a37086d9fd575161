import { randomUUID } from "node:crypto";
import { createApiApp } from "../../api/app";
import { createRateLimiter } from "../../api/limits/rate-limiter";
import type { Harness } from "./harness";
import { serveApp } from "./platform-app";

/**
 * An API app of its own whose rate limiter lets every key make `perMinute` requests a minute (and
 * 100 an hour and a day), for a test of the 429; close it after.
 */
export function rateLimitedApp(h: Harness, perMinute: number) {
  const tier = { perMinute, perHour: 100, perDay: 100, tokensPerAgent: 200_000 };
  const limiter = createRateLimiter(h.deps.redis, {
    tiers: { free: tier, premium: tier },
    prefix: `rl-test:${randomUUID()}`,
    timeoutMs: 1_000,
  });
  return serveApp(createApiApp(h.deps, { bullBoard: false, rateLimiter: limiter }));
}
