import { expect } from "chai";
import { accountSpendKey, SPEND_FIELDS } from "../../shared/limits/shared-spend";
import { utcDay } from "../../shared/limits/utc-day";
import { harness, type Harness } from "../helpers/harness";
import { concretePath, credentialHeaders, documentedOperations } from "../helpers/hostile/operations";
import { request } from "../helpers/http";

/**
 * An account whose spend of the day is used up may start no run by any path. The limiter refuses
 * POSTs to the paths it knows start runs (`RUN_PATHS` in api/routes/v1/index.ts); a path that
 * starts runs but is missing from that list would let a spent account go on buying work. So this
 * sends every documented POST of the execution API, with its documented example, and asserts
 * that none of them stored a run for the account, rather than checking the list against itself.
 */
describe("every path that starts runs is refused once the account's spend of the day is used up", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("no documented POST stores a run for a spent account; the run paths answer 429 naming the daily limit", async function () {
    this.timeout(120_000);
    const { key, userId } = await h.newKey();
    // The day's spend, as the workers' spend scripts count it, far past any tier's ceiling.
    await h.deps.redis.hset(
      accountSpendKey(userId, utcDay(new Date())),
      SPEND_FIELDS.tokens,
      1e12,
      SPEND_FIELDS.cost,
      1e9,
    );
    const doc = (await request(h.baseUrl, "GET", "/openapi.json")).body;
    const posts = documentedOperations([{ app: "api", baseUrl: h.baseUrl, doc }]).filter(
      (op) => op.method === "POST" && op.body?.example !== undefined && op.authRequired,
    );
    expect(posts.map((op) => op.template)).to.include.members([
      "/v1/agent/completions",
      "/v1/swarm/completions",
      "/v1/chat/completions",
      "/v1/reasoning-agent/completions",
    ]);
    const refused: string[] = [];
    for (const op of posts) {
      const res = await request(h.baseUrl, "POST", concretePath(op), {
        headers: credentialHeaders(op, key),
        body: op.body!.example,
      });
      const stored = await h.deps.ds.query("SELECT kind FROM runs WHERE user_id = $1", [userId]);
      expect(stored, `${op.label} answered ${res.status} and stored a run for a spent account`).to.deep.equal([]);
      if (res.status === 429) {
        expect(JSON.stringify(res.body), op.label).to.match(/[Dd]aily (token|cost) limit/);
        refused.push(op.template);
      }
    }
    // The paths that exist to start runs were refused by the limiter itself, not by chance.
    expect(refused).to.include.members([
      "/v1/agent/completions",
      "/v1/swarm/completions",
      "/v1/agent/batch/completions",
      "/v1/swarm/batch/completions",
      "/v1/chat/completions",
    ]);
  });
});
