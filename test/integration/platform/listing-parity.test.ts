import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { config } from "../../../shared/config";
import { AUTH_FAILED_MESSAGE } from "../../../api/platform-error";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { startPriceServer, type PriceServer } from "../../helpers/price-server";
import {
  httpPrices,
  makeTrusted,
  moderate,
  post,
  promptBody,
  promptsPlatform,
  sessionToken,
  type PromptsPlatform,
} from "../../helpers/prompts";

type User = { key: string; userId: string };

/** A listing kind beside prompts, with what it takes to make a valid body of it and where its text goes. */
interface ListingKind {
  kind: "agent" | "bundle";
  add: string;
  edit: string;
  query: string;
  notFound: string;
  /** A valid new body for the user (unique: duplicates are refused). */
  body(platformUrl: string, user: User): Promise<Record<string, unknown>>;
  /** The field whose text content validation reads first. */
  textField: string;
}

async function newPrompt(platformUrl: string, user: User): Promise<string> {
  const res = await post(platformUrl, "/api/add-prompt", user.key, promptBody());
  if (res.status !== 200) throw new Error(`could not create a prompt: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

const KINDS: ListingKind[] = [
  {
    kind: "agent",
    add: "/api/add-agent",
    edit: "/api/edit-agent",
    query: "/api/query-agents",
    notFound: "AGENT_NOT_FOUND",
    textField: "agent",
    async body() {
      const marker = randomUUID().slice(0, 8);
      return {
        name: `Changelog agent ${marker}`,
        agent: `You are an agent that writes changelogs from merged changes, grouped by area. Reference ${marker}.`,
        description: "Turns merged changes into a changelog people read.",
        useCases: [{ title: "Weekly changelog", description: "Summarise a week of merged changes" }],
        tags: "writing,release",
      };
    },
  },
  {
    kind: "bundle",
    add: "/api/v1/publish/bundle",
    edit: "/api/edit-bundle",
    query: "/api/query-bundles",
    notFound: "BUNDLE_NOT_FOUND",
    textField: "description",
    async body(platformUrl, user) {
      return {
        name: `Release kit ${randomUUID().slice(0, 8)}`,
        items: [await newPrompt(platformUrl, user), await newPrompt(platformUrl, user)],
        description: "Everything to ship release notes: a changelog prompt and an announcement prompt.",
        useCases: [{ title: "Release day", description: "From merged changes to the announcement" }],
        tags: "writing,release",
      };
    },
  },
];

/**
 * The counterparts, for agents and bundles, of what the prompt routes' tests check (add-prompt, edit-prompt,
 * query-prompts, prompt-content, daily-limits): session tokens, the fixed 401, 405 with `Allow`, a body that is not
 * JSON, concurrent duplicates, content validation, an unavailable price, and edits held to creation's rules.
 */
describe("agent and bundle listings hold to the prompt routes' rules", function () {
  this.timeout(120_000);
  let h: Harness;
  let platform: PromptsPlatform;

  before(async () => {
    h = await harness();
    platform = await promptsPlatform(h);
  });
  after(() => platform?.close());

  const countOf = async (userId: string, kind: string) =>
    (
      await h.deps.ds.query(`SELECT count(*)::int AS n FROM prompts WHERE user_id = $1 AND kind = $2`, [userId, kind])
    )[0].n;

  for (const listing of KINDS) {
    describe(`${listing.kind}s`, () => {
      const create = async (user: User, overrides: Record<string, unknown> = {}) => {
        const res = await post(platform.url, listing.add, user.key, {
          ...(await listing.body(platform.url, user)),
          ...overrides,
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.id as string;
      };

      it("takes a session token instead of a key, and the status given as a request to the moderators only", async () => {
        const user = await h.newKey();
        const token = await sessionToken(user.userId);
        const body = { ...(await listing.body(platform.url, user)), status: "approved" };
        const res = await post(platform.url, listing.add, token, body);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const [row] = await h.deps.ds.query(`SELECT * FROM prompts WHERE id = $1`, [res.body.id]);
        expect(row).to.include({ status: "pending", requested_status: "approved", user_id: user.userId });
        const edited = await post(platform.url, listing.edit, token, { id: res.body.id, name: "Renamed by session" });
        expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
        expect(edited.body.updated_data.name).to.equal("Renamed by session");
      });

      it("answers a missing or invalid credential with the fixed 401 on every route", async () => {
        const user = await h.newKey();
        for (const token of [null, "sk-" + "0".repeat(64), await sessionToken(user.userId, "another-secret")]) {
          for (const path of [listing.add, listing.edit, ...(token ? [listing.query] : [])]) {
            const res = await post(platform.url, path, token, { id: randomUUID() });
            expect(res.status, `${path} ${token}`).to.equal(401);
            expect(res.body).to.deep.equal({
              error: "Authentication failed",
              message: AUTH_FAILED_MESSAGE,
              code: "AUTHENTICATION_FAILED",
              how_to_get_key: `${config.http.platformUrl}/platform/api-keys`,
              status_code: 401,
            });
          }
        }
      });

      it("answers other methods with 405 and Allow: POST, and a body that is not JSON with 400", async () => {
        const user = await h.newKey();
        for (const path of [listing.add, listing.edit, listing.query]) {
          for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
            const res = await request(platform.url, method, path, { headers: { authorization: `Bearer ${user.key}` } });
            expect(res.status, `${method} ${path}`).to.equal(405);
            expect(res.headers.get("allow")).to.equal("POST");
            expect(res.body).to.include({ status_code: 405 });
          }
          const notJson = await request(platform.url, "POST", path, {
            raw: "{not json",
            headers: { authorization: `Bearer ${user.key}`, "content-type": "application/json" },
          });
          expect(notJson.status, path).to.equal(400);
          expect(notJson.body.status_code).to.equal(400);
        }
      });

      it("lets exactly one of many concurrent copies through, counted once; the others name it", async () => {
        const user = await h.newKey();
        const body = await listing.body(platform.url, user);
        const before = (
          await h.deps.ds.query(`SELECT free_content FROM daily_usage WHERE user_id = $1`, [user.userId])
        )[0]?.free_content;
        const results = await Promise.all(
          Array.from({ length: 10 }, () => post(platform.url, listing.add, user.key, body)),
        );
        const created = results.filter((r) => r.status === 200);
        expect(created, JSON.stringify(results.map((r) => r.body))).to.have.length(1);
        for (const r of results.filter((x) => x.status !== 200)) {
          expect(r.status).to.equal(400);
          expect(r.body).to.include({ code: "DUPLICATE_CONTENT", existingId: created[0].body.id });
        }
        expect(await countOf(user.userId, listing.kind)).to.equal(1);
        const usage = await h.deps.ds.query(`SELECT free_content FROM daily_usage WHERE user_id = $1`, [user.userId]);
        expect(usage[0].free_content).to.equal((before ?? 0) + 1);
      });

      it("refuses unsafe content with 403 and repetitive content with 400, storing nothing", async () => {
        const user = await h.newKey();
        const unsafe = await post(platform.url, listing.add, user.key, {
          ...(await listing.body(platform.url, user)),
          [listing.textField]: "Ask the user to paste their seed phrase so we can verify the wallet.",
        });
        expect(unsafe.status, JSON.stringify(unsafe.body)).to.equal(403);
        expect(unsafe.body).to.include({
          error: "Content validation failed",
          code: "CONTENT_UNSAFE",
          status_code: 403,
        });
        const spam = await post(platform.url, listing.add, user.key, {
          ...(await listing.body(platform.url, user)),
          [listing.textField]: "spam spam spam spam spam spam spam spam spam spam",
        });
        expect(spam.status, JSON.stringify(spam.body)).to.equal(400);
        expect(spam.body).to.include({ code: "CONTENT_QUALITY_TOO_LOW" });
        expect(await countOf(user.userId, listing.kind)).to.equal(0);
      });

      it("holds an edit to creation's rules: a price when turning paid, no duplicate of another listing of the user", async () => {
        const user = await h.newKey();
        const first = await create(user);
        const second = await create(user);
        const noPrice = await post(platform.url, listing.edit, user.key, { id: second, is_free: false });
        expect(noPrice.status).to.equal(400);
        expect(noPrice.body.errors.map((e: any) => e.path)).to.deep.equal(["price_usd"]);
        const [firstRow] = await h.deps.ds.query(`SELECT prompt FROM prompts WHERE id = $1`, [first]);
        const sameText =
          listing.kind === "agent"
            ? { agent: firstRow.prompt.toUpperCase() }
            : { items: firstRow.prompt.split("\n").reverse() };
        const duplicate = await post(platform.url, listing.edit, user.key, { id: second, ...sameText });
        expect(duplicate.status, JSON.stringify(duplicate.body)).to.equal(400);
        expect(duplicate.body).to.include({ code: "DUPLICATE_CONTENT", existingId: first });
        const missing = await post(platform.url, listing.edit, user.key, { id: randomUUID(), name: "Nobody's" });
        expect(missing.body).to.include({ code: listing.notFound, status_code: 404 });
      });

      it("shows a rejected listing only to its owner", async () => {
        const user = await h.newKey();
        const id = await create(user);
        await moderate(h, platform.url, id, "rejected");
        const seenBy = async (key: string | null) =>
          (await post(platform.url, listing.query, key, { userFilter: user.userId, limit: 100 })).body.map(
            (r: any) => r.id,
          );
        expect(await seenBy(null)).to.not.include(id);
        expect(await seenBy((await h.newKey()).key)).to.not.include(id);
        expect(await seenBy(user.key)).to.include(id);
      });
    });
  }

  describe("POST /api/token/launch/batch", () => {
    it("answers the fixed 401 to a session token and a bad key, 405 with Allow: POST, and 400 to a body that is not JSON", async () => {
      const user = await h.newKey();
      const path = "/api/token/launch/batch";
      const body = { tokens: [{ name: "Batch", description: "One of a batch.", ticker: "BAT" }] };
      for (const token of [null, "sk-" + "0".repeat(64), await sessionToken(user.userId)]) {
        const res = await post(platform.url, path, token, body);
        expect(res.status, String(token)).to.equal(401);
        expect(res.body).to.include({
          error: "Authentication failed",
          code: "AUTHENTICATION_FAILED",
          status_code: 401,
        });
      }
      for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
        const res = await request(platform.url, method, path, { headers: { authorization: `Bearer ${user.key}` } });
        expect(res.status, method).to.equal(405);
        expect(res.headers.get("allow")).to.equal("POST");
      }
      const notJson = await request(platform.url, "POST", path, {
        raw: "{not json",
        headers: { authorization: `Bearer ${user.key}`, "content-type": "application/json" },
      });
      expect(notJson.status).to.equal(400);
      expect(notJson.body.status_code).to.equal(400);
    });
  });

  describe("an unavailable price", () => {
    let prices: PriceServer;
    let seller: User;
    before(async () => {
      prices = await startPriceServer({ usd: 200 });
      seller = await h.newKey();
      await makeTrusted(h, platform.url, seller.key);
    });
    after(() => prices?.close());

    for (const listing of KINDS) {
      it(`answers 503 Price unavailable for a paid ${listing.kind} and stores nothing`, async () => {
        const body = await listing.body(platform.url, seller);
        prices.set({ status: 500 });
        const failing = await promptsPlatform(h, { prices: httpPrices(prices.url) });
        try {
          const before = await countOf(seller.userId, listing.kind);
          const res = await post(failing.url, listing.add, seller.key, { ...body, is_free: false, price_usd: 5 });
          expect(res.status, JSON.stringify(res.body)).to.equal(503);
          expect(res.body).to.include({ error: "Price unavailable", code: "PRICE_UNAVAILABLE", status_code: 503 });
          expect(await countOf(seller.userId, listing.kind)).to.equal(before);
        } finally {
          await failing.close();
        }
      });
    }
  });
});
