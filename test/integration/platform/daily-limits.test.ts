import { expect } from "chai";
import { consumeDailyQuota, readDailyUsage } from "../../../api/limits/daily-limits";
import { PlatformError } from "../../../api/platform-error";
import { harness, type Harness } from "../../helpers/harness";
import { post, promptBody, promptsPlatform, type PromptsPlatform } from "../../helpers/prompts";
import { transaction } from "../../../shared/db/sql";

describe("daily limits", function () {
  this.timeout(120_000);
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  describe("on prompt creation under concurrency", () => {
    const LIMITS = { paidPrompts: 3, paidAgents: 2, freeContent: 5 };
    let platform: PromptsPlatform;

    before(async () => {
      platform = await promptsPlatform(h, { dailyLimits: LIMITS });
    });
    after(() => platform?.close());

    it("lets exactly the limit through out of 50 concurrent creates; the rest get the spec's 429", async () => {
      const { key, userId } = await h.newKey();
      const results = await Promise.all(
        Array.from({ length: 50 }, () => post(platform.url, "/api/add-prompt", key, promptBody())),
      );
      const created = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status === 429);
      expect(created).to.have.length(5);
      expect(refused).to.have.length(45);
      const stored = await h.deps.ds.query(`SELECT count(*)::int AS n FROM prompts WHERE user_id = $1`, [userId]);
      expect(stored[0].n).to.equal(5);

      const [{ day: today }] = await h.deps.ds.query(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM daily_usage WHERE user_id = $1`,
        [userId],
      );
      for (const r of refused) {
        expect(Object.keys(r.body).sort()).to.deep.equal([
          "currentUsage",
          "error",
          "limits",
          "message",
          "resetTime",
          "status_code",
        ]);
        expect(r.body).to.include({ error: "Daily limit exceeded", status_code: 429 });
        expect(r.body.message)
          .to.be.a("string")
          .and.match(/freeContent/);
        expect(r.body.currentUsage).to.deep.equal({ paidPrompts: 0, paidAgents: 0, freeContent: 5, date: today });
        expect(r.body.limits).to.deep.equal(LIMITS);
        expect(r.body.resetTime).to.equal(new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString());
      }
    });

    it("counts free and paid prompts separately", async () => {
      const { key, userId } = await h.newKey();
      for (let i = 0; i < 5; i++)
        expect((await post(platform.url, "/api/add-prompt", key, promptBody())).status).to.equal(200);
      expect((await post(platform.url, "/api/add-prompt", key, promptBody())).status).to.equal(429);
      // Paid prompts have their own counter: this one gets past the limit and fails on trust instead.
      const paid = await post(platform.url, "/api/add-prompt", key, promptBody({ is_free: false, price_usd: 1 }));
      expect(paid.status).to.equal(403);
      expect((await readDailyUsage(h.deps.ds, userId)).paidPrompts).to.equal(0);
    });
  });

  describe("consumeDailyQuota (also used by token launches as paid agents)", () => {
    const limits = { paidPrompts: 10, paidAgents: 2, freeContent: 10 };

    async function refusal(promise: Promise<unknown>): Promise<PlatformError> {
      const caught = await promise.then(
        () => null,
        (err) => err,
      );
      expect(caught).to.be.instanceOf(PlatformError);
      expect(caught.status).to.equal(429);
      return caught;
    }

    it("counts per UTC day and resets at midnight", async () => {
      const { userId } = await h.newKey();
      const late = new Date("2026-03-01T23:59:30Z");
      await consumeDailyQuota(h.deps.ds, userId, "paidAgents", limits, late);
      const second = await consumeDailyQuota(h.deps.ds, userId, "paidAgents", limits, late);
      expect(second).to.deep.equal({ paidPrompts: 0, paidAgents: 2, freeContent: 0, date: "2026-03-01" });
      const err = await refusal(consumeDailyQuota(h.deps.ds, userId, "paidAgents", limits, late));
      expect(err.extra).to.deep.include({ resetTime: "2026-03-02T00:00:00.000Z" });
      expect(err.extra.currentUsage).to.deep.equal({
        paidPrompts: 0,
        paidAgents: 2,
        freeContent: 0,
        date: "2026-03-01",
      });
      const nextDay = await consumeDailyQuota(
        h.deps.ds,
        userId,
        "paidAgents",
        limits,
        new Date("2026-03-02T00:00:01Z"),
      );
      expect(nextDay).to.deep.include({ paidAgents: 1, date: "2026-03-02" });
    });

    it("lets exactly the limit through when 50 transactions race for it", async () => {
      const { userId } = await h.newKey();
      const now = new Date();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 50 }, () =>
          transaction(h.deps.ds, (tx) =>
            consumeDailyQuota(tx, userId, "paidPrompts", { ...limits, paidPrompts: 7 }, now),
          ),
        ),
      );
      expect(outcomes.filter((o) => o.status === "fulfilled")).to.have.length(7);
      for (const o of outcomes.filter((x): x is PromiseRejectedResult => x.status === "rejected"))
        expect(o.reason.status).to.equal(429);
      expect((await readDailyUsage(h.deps.ds, userId, now)).paidPrompts).to.equal(7);
    });

    it("gives the count back when the transaction it ran in rolls back", async () => {
      const { userId } = await h.newKey();
      await transaction(h.deps.ds, async (tx) => {
        await consumeDailyQuota(tx, userId, "paidAgents", limits);
        throw new Error("the launch failed");
      }).catch(() => undefined);
      expect((await readDailyUsage(h.deps.ds, userId)).paidAgents).to.equal(0);
    });

    it("refuses everything when a limit is 0", async () => {
      const { userId } = await h.newKey();
      await refusal(consumeDailyQuota(h.deps.ds, userId, "freeContent", { ...limits, freeContent: 0 }));
      expect((await readDailyUsage(h.deps.ds, userId)).freeContent).to.equal(0);
    });
  });
});
