import { expect } from "chai";
import { formatReset, RateLimits } from "../../scripts/llm-simulator/rate-limits";
import {
  learnedWindowMs,
  parseResetDuration,
  reportedLimits,
} from "../../shared/llm/provider-limits/rate-limit-headers";

describe("provider limits: what a provider's headers say", () => {
  it("reads reset durations as OpenAI writes them, and nothing else", () => {
    expect(parseResetDuration("20ms")).to.equal(20);
    expect(parseResetDuration("1s")).to.equal(1_000);
    expect(parseResetDuration("6m0s")).to.equal(360_000);
    expect(parseResetDuration("1m30.5s")).to.equal(90_500);
    expect(parseResetDuration("2")).to.equal(2_000);
    // An hour is the longest a header may say, whatever it claims.
    expect(parseResetDuration("999h")).to.equal(3_600_000);
    for (const bad of ["", "soon", "-1s", "1d", "1s; drop"]) expect(parseResetDuration(bad), bad).to.equal(undefined);
  });

  it("reads the x-ratelimit headers of an answer, and a 429's pause", () => {
    const headers = new Headers({
      "x-ratelimit-limit-requests": "500",
      "x-ratelimit-remaining-requests": "499",
      "x-ratelimit-reset-requests": "120ms",
      "x-ratelimit-limit-tokens": "30000",
      "x-ratelimit-remaining-tokens": "nonsense",
      "retry-after-ms": "1500",
      "retry-after": "9",
    });
    expect(reportedLimits(200, headers)).to.deep.equal({ requests: { limit: 500, remaining: 499, resetMs: 120 } });
    expect(reportedLimits(429, headers).retryAfterMs).to.equal(1_500);
    expect(reportedLimits(429, new Headers({ "retry-after": "2" })).retryAfterMs).to.equal(2_000);
    expect(reportedLimits(429, new Headers({ "retry-after": "-5" }))).to.deep.equal({});
    expect(reportedLimits(200, new Headers())).to.deep.equal({});
  });

  it("learns a window's length from what refills in how long", () => {
    // 2 of 10 used, whole again in 400 ms: one unit every 200 ms, 10 in 2 s.
    expect(learnedWindowMs({ limit: 10, remaining: 8, resetMs: 400 })).to.equal(2_000);
    expect(learnedWindowMs({ limit: 500, remaining: 499, resetMs: 120 })).to.equal(60_000);
    expect(learnedWindowMs({ limit: 10, remaining: 10, resetMs: 0 }), "nothing used says nothing").to.equal(undefined);
    expect(learnedWindowMs({ limit: 10, remaining: 9, resetMs: 1 }), "never below 100 ms").to.equal(100);
  });
});

describe("LLM simulator: rate limits per API key", () => {
  it("writes reset durations as OpenAI does", () => {
    expect(formatReset(20)).to.equal("20ms");
    expect(formatReset(1_500)).to.equal("1.5s");
    expect(formatReset(360_000)).to.equal("6m0s");
  });

  it("lets a whole window go at once, then one request per window / limit, with headers on every answer", () => {
    const limits = new RateLimits();
    limits.set("k", { requests: 4, windowMs: 2_000 });
    expect(limits.take("other", 1, 0), "a key without limits").to.equal(null);
    for (let i = 0; i < 4; i++) expect(limits.take("k", 1, 0)?.retryAfterMs).to.equal(undefined);
    const refused = limits.take("k", 1, 0)!;
    expect(refused.retryAfterMs).to.equal(500);
    expect(refused.headers).to.include({
      "x-ratelimit-limit-requests": "4",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": "2s",
      "retry-after-ms": "500",
      "retry-after": "1",
    });
    expect(limits.take("k", 1, 499)?.retryAfterMs).to.equal(1);
    const next = limits.take("k", 1, 500)!;
    expect(next.retryAfterMs).to.equal(undefined);
    expect(next.headers["x-ratelimit-remaining-requests"]).to.equal("0");
  });

  it("counts tokens per window beside requests", () => {
    const limits = new RateLimits({ tokens: 100, windowMs: 1_000 });
    expect(limits.take("any", 80, 0)?.headers["x-ratelimit-remaining-tokens"]).to.equal("20");
    // 30 more need 10 to come back: 100 ms.
    expect(limits.take("any", 30, 0)?.retryAfterMs).to.equal(100);
    expect(limits.take("any", 30, 100)?.retryAfterMs).to.equal(undefined);
  });
});
