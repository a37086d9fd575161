import { expect } from "chai";
import { egress } from "../../shared/config/egress";
import { nextAttemptAt } from "../../workers/webhooks/webhook-sender";

describe("webhook retry schedule", () => {
  it("retries by default for more than a day, as Standard Webhooks suggests (8 attempts, ~27.6 h)", () => {
    const defaults = Object.fromEntries(
      Object.entries(egress.settings).map(([name, setting]) => [name, setting.schema.validate(undefined).value]),
    );
    const delays = egress.load(defaults).webhooks.retryScheduleMs;
    expect(delays).to.deep.equal([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(delays.reduce((a, b) => a + b, 0)).to.be.greaterThan(24 * 3_600_000);
  });

  it("schedules each retry after the failed attempt, and none once the schedule is used up", () => {
    const now = 1_000_000;
    expect(nextAttemptAt(1, [10, 20], now)?.getTime()).to.equal(now + 10);
    expect(nextAttemptAt(2, [10, 20], now)?.getTime()).to.equal(now + 20);
    expect(nextAttemptAt(3, [10, 20], now)).to.equal(null);
  });
});
