import { expect } from "chai";
import { ExhaustedKeys } from "../../api/http/exhausted-keys";
import type { RateLimitState, WindowState } from "../../api/limits/rate-limiter";

const window = (remaining: number, resetMs = 30_000): WindowState => ({
  count: 3 - remaining,
  limit: 3,
  remaining,
  exceeded: remaining === 0,
  resetMs,
});
const state = (minuteLeft: number): RateLimitState => {
  const scope = { minute: window(minuteLeft), hour: window(2, 600_000), day: window(2, 6_000_000) };
  return {
    tier: "free",
    limits: { perMinute: 3, perHour: 3, perDay: 3, tokensPerAgent: 1 },
    windows: scope,
    scopes: { key: scope, account: scope },
  };
};

describe("keys refused before their body is read (ExhaustedKeys)", () => {
  it("remembers a key whose window a verdict left used up, until it resets, and only for that tier", () => {
    const keys = new ExhaustedKeys();
    keys.note({ apiKeyId: "k1", tier: "free" }, state(1));
    expect(keys.check({ apiKeyId: "k1", tier: "free" }), "a window with room left").to.equal(null);
    keys.note({ apiKeyId: "k1", tier: "free" }, state(0));
    expect(keys.check({ apiKeyId: "k1", tier: "free" }))
      .to.include({ tier: "free" })
      .and.have.property("reason")
      .that.match(/3 requests per minute/);
    expect(keys.check({ apiKeyId: "k2", tier: "free" }), "another key").to.equal(null);
    // Moved to another tier, the key has other limits: the limiter decides again.
    expect(keys.check({ apiKeyId: "k1", tier: "premium" })).to.equal(null);
    expect(keys.check({ apiKeyId: "k1", tier: "free" }), "forgotten once it no longer held").to.equal(null);
  });
});
