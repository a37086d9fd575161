import { expect } from "chai";
import { harness, type Harness } from "../../helpers/harness";
import { agedKey, moderate, post, promptBody, promptsPlatform, type PromptsPlatform } from "../../helpers/prompts";

/**
 * A seller's trust for paid content comes from ratings of their approved prompts by distinct
 * accounts that were not brand new when they rated (TRUST_MIN_RATER_AGE_HOURS,
 * TRUST_MIN_DISTINCT_RATERS); the seller's own ratings never count.
 */
describe("trustworthiness for paid content", function () {
  this.timeout(60_000);
  const trust = { minRaterAgeHours: 24, minDistinctRaters: 2 };
  let h: Harness;
  let platform: PromptsPlatform;

  before(async () => {
    h = await harness();
    platform = await promptsPlatform(h, { trust });
  });
  after(() => platform?.close());

  /** Two free prompts of the seller, approved by a moderator. */
  async function approvedItems(sellerKey: string): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await post(platform.url, "/api/add-prompt", sellerKey, promptBody());
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      await moderate(h, platform.url, created.body.id);
      ids.push(created.body.id);
    }
    return ids;
  }
  async function rateAll(raterKey: string, ids: string[], rating = 5): Promise<void> {
    for (const id of ids) {
      const res = await post(platform.url, "/api/rate-prompt", raterKey, { id, rating });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  }
  const sellPaid = (sellerKey: string) =>
    post(platform.url, "/api/add-prompt", sellerKey, promptBody({ is_free: false, price_usd: 4 }));

  it("needs two approved items rated 4+ by enough distinct accounts: one second account rating both is not enough", async () => {
    const seller = await h.newKey();
    const untrusted = await sellPaid(seller.key);
    expect(untrusted.status).to.equal(403);
    expect(untrusted.body).to.include({
      error: "Content validation failed",
      code: "INSUFFICIENT_TRUST",
      trustworthiness: 0,
    });
    const ids = await approvedItems(seller.key);

    await rateAll((await agedKey(h, 48)).key, ids);
    const oneRater = await sellPaid(seller.key);
    expect(oneRater.status).to.equal(403);
    expect(oneRater.body.trustworthiness).to.equal(5);
    expect(oneRater.body.details).to.deep.equal({
      rated_items: 2,
      required_items: 2,
      distinct_raters: 1,
      required_raters: 2,
      min_rater_age_hours: 24,
    });

    const second = await agedKey(h, 48);
    await post(platform.url, "/api/rate-prompt", second.key, { id: ids[0], rating: 5 });
    await post(platform.url, "/api/rate-prompt", second.key, { id: ids[1], rating: 1 });
    const oneGoodItem = await sellPaid(seller.key);
    expect(oneGoodItem.status, "the second item now averages 3").to.equal(403);
    expect(oneGoodItem.body.details).to.include({ rated_items: 1, distinct_raters: 2 });

    await post(platform.url, "/api/rate-prompt", second.key, { id: ids[1], rating: 4 });
    const trusted = await sellPaid(seller.key);
    expect(trusted.status, JSON.stringify(trusted.body)).to.equal(200);
  });

  it("does not count ratings by accounts younger than the minimum age when they rated", async () => {
    const seller = await h.newKey();
    const ids = await approvedItems(seller.key);
    for (let i = 0; i < 3; i++) await rateAll((await h.newKey()).key, ids);
    await rateAll((await agedKey(h, 23)).key, ids);
    const refused = await sellPaid(seller.key);
    expect(refused.status).to.equal(403);
    expect(refused.body).to.include({ code: "INSUFFICIENT_TRUST", trustworthiness: 0 });
    expect(refused.body.details).to.include({ rated_items: 0, distinct_raters: 0 });
  });

  it("never counts the seller's own ratings, even ones stored directly", async () => {
    const seller = await agedKey(h, 48);
    const ids = await approvedItems(seller.key);
    // The API refuses rating one's own prompt (403); a self-rating stored anyway must still not count.
    for (const id of ids) {
      await h.deps.ds.query(
        `INSERT INTO prompt_reviews (prompt_id, user_id, rating, created_at) VALUES ($1, $2, 5, now())`,
        [id, seller.userId],
      );
      await h.deps.ds.query(
        `UPDATE prompts SET review_count = review_count + 1, rating_sum = rating_sum + 5 WHERE id = $1`,
        [id],
      );
    }
    await rateAll((await agedKey(h, 48)).key, ids);
    const refused = await sellPaid(seller.key);
    expect(refused.status).to.equal(403);
    expect(refused.body.details).to.include({ rated_items: 2, distinct_raters: 1 });
  });

  it("counts only items that are approved: a rejected item's ratings stop counting", async () => {
    const seller = await h.newKey();
    const ids = await approvedItems(seller.key);
    for (let i = 0; i < 2; i++) await rateAll((await agedKey(h, 48)).key, ids);
    expect((await sellPaid(seller.key)).status).to.equal(200);
    await moderate(h, platform.url, ids[0], "rejected");
    const refused = await sellPaid(seller.key);
    expect(refused.status).to.equal(403);
    expect(refused.body.details).to.include({ rated_items: 1, distinct_raters: 2 });
  });
});
