import { expect } from "chai";
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { config } from "../../../shared/config";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { dataUrl, GIF_1PX, PDF_BYTES, PNG_1PX } from "../../helpers/images";
import { startPriceServer, type PriceServer } from "../../helpers/price-server";
import {
  httpPrices,
  makeTrusted,
  post,
  promptBody,
  promptsPlatform,
  sessionToken,
  type PromptsPlatform,
} from "../../helpers/prompts";

const AUTH_MESSAGE = "Invalid or missing API key. Please check your API key and try again.";

function paths(body: any): string[] {
  return body.errors.map((e: { path: string }) => e.path).sort();
}

describe("POST /api/add-prompt", function () {
  this.timeout(60_000);
  let h: Harness;
  let platform: PromptsPlatform;
  let key: string;
  let userId: string;

  before(async () => {
    h = await harness();
    platform = await promptsPlatform(h);
    ({ key, userId } = await h.newKey());
  });
  after(() => platform?.close());

  const stored = async (id: string) => (await h.deps.ds.query(`SELECT * FROM prompts WHERE id = $1`, [id]))[0];
  const countOf = async (user: string) =>
    (await h.deps.ds.query(`SELECT count(*)::int AS n FROM prompts WHERE user_id = $1`, [user]))[0].n;

  describe("success", () => {
    it("stores a free prompt and answers the spec's body", async () => {
      const body = promptBody({
        links: ["https://example.com/docs", { name: "Demo", url: "https://example.com/demo" }],
        image_url: "",
      });
      const res = await post(platform.url, "/api/add-prompt", key, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(Object.keys(res.body).sort()).to.deep.equal([
        "id",
        "listing_url",
        "pool_address",
        "success",
        "token_address",
        "tokenized",
      ]);
      expect(res.body).to.include({ success: true, tokenized: false, token_address: null, pool_address: null });
      expect(res.body.listing_url).to.equal(`${config.http.platformUrl}/prompt/${res.body.id}`);
      const row = await stored(res.body.id);
      expect(row).to.include({
        user_id: userId,
        name: body.name,
        prompt: body.prompt,
        is_free: true,
        price_usd: 0,
        price: 0,
        status: "pending",
        tokenized_on: false,
        category: "content",
        tags: body.tags,
        image_url: null,
      });
      expect(row.use_cases).to.deep.equal(body.useCases);
      expect(row.links).to.deep.equal(body.links);
    });

    it("takes the status given as a request to the moderators only, and a session token instead of a key", async () => {
      const token = await sessionToken(userId);
      const res = await post(platform.url, "/api/add-prompt", token, promptBody({ status: "approved" }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await stored(res.body.id)).to.include({
        status: "pending",
        requested_status: "approved",
        user_id: userId,
      });
    });
  });

  describe("rule 3: names, prompts, use cases and URLs", () => {
    it("reports every problem at once as a 400 Validation error", async () => {
      const res = await post(platform.url, "/api/add-prompt", key, {
        name: "x",
        prompt: "hey",
        useCases: [{ title: "" }, "nope"],
        tags: "a",
        image_url: "not a url",
        links: ["ftp://example.com/file", { name: "Docs" }, { name: "Bad", url: "javascript:alert(1)" }, 42],
        status: "published",
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ error: "Validation error", code: "VALIDATION_ERROR", status_code: 400 });
      expect(paths(res.body)).to.deep.equal(
        [
          "image_url",
          "links.0",
          "links.1.url",
          "links.2.url",
          "links.3",
          "name",
          "prompt",
          "status",
          "tags",
          "useCases.0.description",
          "useCases.0.title",
          "useCases.1",
        ].sort(),
      );
      for (const e of res.body.errors) expect(e.message).to.be.a("string").and.not.equal("");
    });

    it("requires name, prompt, useCases (at least one) and tags", async () => {
      const missing = await post(platform.url, "/api/add-prompt", key, {});
      expect(missing.status).to.equal(400);
      expect(paths(missing.body)).to.deep.equal(["name", "prompt", "tags", "useCases"]);
      const empty = await post(platform.url, "/api/add-prompt", key, promptBody({ useCases: [] }));
      expect(empty.status).to.equal(400);
      expect(paths(empty.body)).to.deep.equal(["useCases"]);
    });

    it("answers a body that is not JSON with 400", async () => {
      const res = await request(platform.url, "POST", "/api/add-prompt", {
        raw: "{not json",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      });
      expect(res.status).to.equal(400);
      expect(res.body.status_code).to.equal(400);
    });
  });

  describe("rule 1: paid prompts need a price", () => {
    it("refuses is_free false without a price above 0", async () => {
      for (const extra of [{}, { price_usd: 0 }, { price_usd: -3 }, { price_usd: null }]) {
        const res = await post(platform.url, "/api/add-prompt", key, promptBody({ is_free: false, ...extra }));
        expect(res.status, JSON.stringify(extra)).to.equal(400);
        expect(res.body.error).to.equal("Validation error");
        expect(paths(res.body)).to.deep.equal(["price_usd"]);
      }
    });
  });

  describe("rule 2: tokenization fields", () => {
    const wallet = Keypair.generate();
    const other = Keypair.generate();

    it("requires ticker, creator_wallet and private_key when tokenized_on", async () => {
      const res = await post(platform.url, "/api/add-prompt", key, promptBody({ tokenized_on: true }));
      expect(res.status).to.equal(400);
      expect(paths(res.body)).to.deep.equal(["creator_wallet", "private_key", "ticker"]);
    });

    it("refuses malformed tickers, wallets and keys, and a key of another wallet, never echoing the key", async () => {
      const secret = JSON.stringify(Array.from(other.secretKey));
      const cases: [Record<string, unknown>, string[]][] = [
        [
          {
            ticker: "TOOLONGTICKER",
            creator_wallet: wallet.publicKey.toBase58(),
            private_key: Array.from(wallet.secretKey),
          },
          ["ticker"],
        ],
        [
          { ticker: "AB-1", creator_wallet: "not-a-wallet", private_key: "[1,2,3]" },
          ["creator_wallet", "private_key", "ticker"],
        ],
        [
          {
            ticker: "ABC",
            creator_wallet: wallet.publicKey.toBase58(),
            private_key: [...Array.from(wallet.secretKey).slice(0, 63), 256],
          },
          ["private_key"],
        ],
        [{ ticker: "ABC", creator_wallet: wallet.publicKey.toBase58(), private_key: secret }, ["private_key"]],
      ];
      for (const [extra, expected] of cases) {
        const res = await post(platform.url, "/api/add-prompt", key, promptBody({ tokenized_on: true, ...extra }));
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(paths(res.body)).to.deep.equal(expected);
        const text = JSON.stringify(res.body);
        expect(text).to.not.include(secret);
        expect(text).to.not.include(bs58.encode(other.secretKey));
      }
    });
  });

  describe("images", () => {
    it("stores image_base64 in the object storage and links it", async () => {
      const res = await post(
        platform.url,
        "/api/add-prompt",
        key,
        promptBody({ image_base64: dataUrl(GIF_1PX, "image/png") }),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const row = await stored(res.body.id);
      expect(row.file_path).to.match(/^[0-9a-f]{64}\.gif$/);
      expect(row.image_url).to.equal(`http://placeholder.test/uploads/${row.file_path}`);
      expect((await readFile(join(platform.storageDir, row.file_path))).equals(GIF_1PX)).to.equal(true);
    });

    it("accepts a file_path naming a stored image and refuses unknown ones and non-images", async () => {
      const { key: stored1 } = await platform.services.storage.put(PNG_1PX, "image/png");
      const ok = await post(platform.url, "/api/add-prompt", key, promptBody({ file_path: `/uploads/${stored1}` }));
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect((await stored(ok.body.id)).file_path).to.equal(stored1);
      const unknown = await post(
        platform.url,
        "/api/add-prompt",
        key,
        promptBody({ file_path: `${"a".repeat(64)}.png` }),
      );
      expect(unknown.status).to.equal(400);
      expect(paths(unknown.body)).to.deep.equal(["file_path"]);
      const badPath = await post(platform.url, "/api/add-prompt", key, promptBody({ file_path: "../../etc/passwd" }));
      expect(paths(badPath.body)).to.deep.equal(["file_path"]);
      const pdf = await post(
        platform.url,
        "/api/add-prompt",
        key,
        promptBody({ image_base64: PDF_BYTES.toString("base64") }),
      );
      expect(pdf.status).to.equal(400);
      expect(paths(pdf.body)).to.deep.equal(["image_base64"]);
      expect(pdf.body.errors[0].message).to.match(/PNG, JPEG, WebP or GIF/);
    });
  });

  describe("rule 6: price conversion", () => {
    let prices: PriceServer;
    let paid: PromptsPlatform;
    let seller: { key: string; userId: string };

    before(async () => {
      prices = await startPriceServer({ usd: 200 });
      paid = await promptsPlatform(h, {
        prices: httpPrices(prices.url),
      });
      seller = await h.newKey();
      await makeTrusted(h, paid.url, seller.key);
    });
    after(async () => {
      await paid?.close();
      await prices?.close();
    });

    it("converts price_usd into SOL at the source's price", async () => {
      const res = await post(paid.url, "/api/add-prompt", seller.key, promptBody({ is_free: false, price_usd: 9.99 }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await stored(res.body.id)).to.include({ is_free: false, price_usd: 9.99, price: 0.04995 });
    });

    it("answers 503 Price unavailable and stores nothing when no recent price exists", async () => {
      prices.set({ status: 500 });
      const before = await countOf(seller.userId);
      const failing = await promptsPlatform(h, {
        prices: httpPrices(prices.url),
      });
      try {
        const res = await post(
          failing.url,
          "/api/add-prompt",
          seller.key,
          promptBody({ is_free: false, price_usd: 5 }),
        );
        expect(res.status).to.equal(503);
        expect(res.body).to.include({ error: "Price unavailable", code: "PRICE_UNAVAILABLE", status_code: 503 });
        expect(await countOf(seller.userId)).to.equal(before);
        const usage = await h.deps.ds.query(`SELECT paid_prompts FROM daily_usage WHERE user_id = $1`, [seller.userId]);
        expect(usage[0]?.paid_prompts ?? 0).to.equal(1);
      } finally {
        await failing.close();
      }
    });
  });

  describe("authentication and methods", () => {
    it("answers a missing or invalid credential with the fixed 401", async () => {
      for (const token of [
        null,
        "sk-" + "0".repeat(64),
        "not-a-token",
        await sessionToken(userId, "another-secret-entirely"),
      ]) {
        const res = await post(platform.url, "/api/add-prompt", token, promptBody());
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal({
          error: "Authentication failed",
          message: AUTH_MESSAGE,
          code: "AUTHENTICATION_FAILED",
          how_to_get_key: `${config.http.platformUrl}/platform/api-keys`,
          status_code: 401,
        });
      }
    });

    it("answers other methods with 405 and Allow: POST", async () => {
      for (const path of ["/api/add-prompt", "/api/edit-prompt", "/api/query-prompts", "/api/rate-prompt"]) {
        for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
          const res = await request(platform.url, method, path, { headers: { authorization: `Bearer ${key}` } });
          expect(res.status, `${method} ${path}`).to.equal(405);
          expect(res.headers.get("allow")).to.equal("POST");
          expect(res.body).to.include({ status_code: 405 });
        }
      }
    });
  });
});
