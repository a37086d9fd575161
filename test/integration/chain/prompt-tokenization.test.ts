import { expect } from "chai";
import bs58 from "bs58";
import { Connection, Keypair } from "@solana/web3.js";
import { config } from "../../../shared/config";
import { harness, type Harness } from "../../helpers/harness";
import { eventually, request } from "../../helpers/http";
import { dataUrl, PNG_1PX } from "../../helpers/images";
import { moderate, post, promptBody, promptsPlatform, type PromptsPlatform } from "../../helpers/prompts";
import { postgresText, redisText } from "../../helpers/secret-scan";
import { fundedWallet, keyEncodings, keyLeakForms, newKeypair, usedKeys } from "../../helpers/solana-keys";
import { readLaunchedToken } from "../../helpers/token-launch";

/** A body for a tokenized prompt launched with this wallet (its key as base58 unless given). */
function tokenized(wallet: Keypair, overrides: Record<string, unknown> = {}) {
  return promptBody({
    tokenized_on: true,
    ticker: "prmt",
    creator_wallet: wallet.publicKey.toBase58(),
    private_key: keyEncodings(wallet).base58,
    ...overrides,
  });
}

/**
 * An image whose stored copy's URL is too long for one launch transaction (the platform `unlaunchable`
 * gives stored images such URLs): the launch is refused when it is built.
 */
const UNLAUNCHABLE_IMAGE = dataUrl(PNG_1PX);

describe("tokenized prompts (POST /api/add-prompt) on the localnet", function () {
  this.timeout(90_000);
  let h: Harness;
  let connection: Connection;
  let platform: PromptsPlatform;
  /** Stores images under a URL too long for a launch transaction. */
  let unlaunchable: PromptsPlatform;

  before(async () => {
    h = await harness();
    const net = await h.localnet();
    connection = new Connection(net.rpcUrl, "confirmed");
    platform = await promptsPlatform(h);
    unlaunchable = await promptsPlatform(h, { storagePublicUrl: `http://placeholder.test/${"a".repeat(1_400)}` });
  });
  after(async () => {
    await platform?.close();
    await unlaunchable?.close();
  });

  /** Everything stored for a user: prompts, launches, runs, and today's counters. */
  async function storedFor(userId: string) {
    const [counts] = await h.deps.ds.query(
      `SELECT (SELECT count(*)::int FROM prompts WHERE user_id = $1) AS prompts,
              (SELECT count(*)::int FROM token_launches WHERE user_id = $1) AS launches,
              (SELECT count(*)::int FROM runs WHERE user_id = $1) AS runs,
              (SELECT json_build_object('free', free_content, 'paid', paid_prompts, 'agents', paid_agents) FROM daily_usage WHERE user_id = $1) AS usage`,
      [userId],
    );
    return counts;
  }

  /** The user's prompts the prompt query shows them (any review status): a prompt whose token is not launched yet is in no listing. */
  const listed = async (key: string, userId: string) =>
    (await post(platform.url, "/api/query-prompts", key, { userFilter: userId, limit: 100 })).body.map(
      (p: { id: string }) => p.id,
    );
  /** Whether anyone but the owner sees the prompt in the prompt query or on its page: only once a moderator approved it. */
  const seenByOthers = async (id: string) => {
    const [{ name }] = await h.deps.ds.query(`SELECT name FROM prompts WHERE id = $1`, [id]);
    const found = (await post(platform.url, "/api/query-prompts", null, { search: name })).body.some(
      (p: { id: string }) => p.id === id,
    );
    return found || (await request(platform.url, "GET", `/prompt/${id}`)).status === 200;
  };

  it("launches the prompt's token through the chain worker: the prompt gets its address, the mint its name and ticker", async () => {
    const { key, userId } = await h.newKey();
    const wallet = await fundedWallet(connection, 0.05);
    const body = tokenized(wallet, { image_base64: dataUrl(PNG_1PX) });
    const res = await post(platform.url, "/api/add-prompt", key, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ success: true, tokenized: true, pool_address: null });
    expect(res.body.token_address).to.be.a("string");

    const { metadata, holding } = await readLaunchedToken(connection, res.body.token_address, wallet.publicKey);
    const [row] = await h.deps.ds.query(`SELECT * FROM prompts WHERE id = $1`, [res.body.id]);
    expect(metadata).to.include({ name: body.name, symbol: "PRMT", uri: row.image_url });
    expect(row.image_url).to.match(/\/uploads\/[0-9a-f]{64}\.png$/);
    expect(holding.amount).to.equal(BigInt(config.solana.supply) * 10n ** BigInt(config.solana.decimals));
    expect(row).to.include({
      tokenized_on: true,
      ticker: "PRMT",
      token_address: res.body.token_address,
      pool_address: null,
    });

    const [launch] = await h.deps.ds.query(`SELECT * FROM token_launches WHERE prompt_id = $1`, [res.body.id]);
    expect(launch).to.include({
      status: "confirmed",
      listing_id: null,
      creator_wallet: wallet.publicKey.toBase58(),
      quote_mint: "SOL",
      fee_selection: "market",
      mint_address: res.body.token_address,
    });
    const [run] = await h.deps.ds.query(`SELECT kind, status, output FROM runs WHERE id = $1`, [launch.run_id]);
    expect(run).to.deep.include({ kind: "prompt_tokenize", status: "succeeded" });
    expect(run.output).to.include({ prompt_id: res.body.id, listing_id: null, token_address: res.body.token_address });

    // Listed and shown once launched; counted once, as free content (not also as a paid agent).
    expect(await listed(key, userId)).to.deep.equal([res.body.id]);
    await moderate(h, platform.url, res.body.id);
    expect((await request(platform.url, "GET", `/prompt/${res.body.id}`)).status).to.equal(200);
    expect((await storedFor(userId)).usage).to.deep.equal({ free: 1, paid: 0, agents: 0 });
  });

  it("takes the key as a JSON array (text or array), base64 and base58", async () => {
    const { key } = await h.newKey();
    const forms: ((k: Keypair) => unknown)[] = [
      (k) => keyEncodings(k).json,
      (k) => [...k.secretKey],
      (k) => keyEncodings(k).base64,
      (k) => bs58.encode(k.secretKey),
    ];
    for (const form of forms) {
      const wallet = await fundedWallet(connection, 0.05);
      const res = await post(platform.url, "/api/add-prompt", key, tokenized(wallet, { private_key: form(wallet) }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const { holding } = await readLaunchedToken(connection, res.body.token_address, wallet.publicKey);
      expect(holding.owner.equals(wallet.publicKey)).to.equal(true);
    }
  });

  it("refuses missing, malformed and mismatched keys and wallets with 400, storing nothing and never echoing a key", async () => {
    const { key, userId } = await h.newKey();
    const wallet = newKeypair();
    const other = newKeypair();
    const secret = [...wallet.secretKey];
    const mixed = Buffer.concat([wallet.secretKey.subarray(0, 32), Keypair.generate().publicKey.toBytes()]);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ private_key: undefined }, ["private_key"]],
      [{ creator_wallet: undefined }, ["creator_wallet"]],
      [{ ticker: undefined }, ["ticker"]],
      [{ private_key: JSON.stringify(secret.slice(0, 63)) }, ["private_key"]],
      [{ private_key: JSON.stringify([...secret.slice(0, 63), 256]) }, ["private_key"]],
      [{ private_key: `${keyEncodings(wallet).base58.slice(0, -2)}0O` }, ["private_key"]],
      [{ private_key: bs58.encode(mixed) }, ["private_key"]],
      [{ private_key: mixed.toString("base64") }, ["private_key"]],
      [{ private_key: 42 }, ["private_key"]],
      [{ creator_wallet: "not-a-wallet" }, ["creator_wallet"]],
      // A valid key of another wallet than creator_wallet.
      [{ private_key: keyEncodings(other).json }, ["private_key"]],
      [{ private_key: keyEncodings(other).base64 }, ["private_key"]],
    ];
    for (const [change, paths] of cases) {
      const res = await post(platform.url, "/api/add-prompt", key, tokenized(wallet, change));
      expect(res.status, JSON.stringify(change)).to.equal(400);
      expect(res.body.error).to.equal("Validation error");
      expect(res.body.errors.map((e: { path: string }) => e.path).sort(), JSON.stringify(res.body)).to.deep.equal(
        paths,
      );
      const text = JSON.stringify(res.body);
      for (const form of [
        ...keyLeakForms(wallet),
        ...keyLeakForms(other),
        bs58.encode(mixed),
        mixed.toString("base64"),
      ])
        expect(text).to.not.include(form);
    }
    const mismatch = await post(
      platform.url,
      "/api/add-prompt",
      key,
      tokenized(wallet, { private_key: keyEncodings(other).base58 }),
    );
    expect(mismatch.body.errors).to.deep.include({
      path: "private_key",
      message: "'private_key' does not belong to 'creator_wallet'",
    });
    expect(await storedFor(userId)).to.deep.equal({ prompts: 0, launches: 0, runs: 0, usage: null });
  });

  it("refuses a wallet under 0.04 SOL with the spec's 400 and its figures, storing nothing", async () => {
    const { key, userId } = await h.newKey();
    const empty = newKeypair();
    const res = await post(platform.url, "/api/add-prompt", key, tokenized(empty));
    expect(res.status).to.equal(400);
    expect(res.body).to.include({
      error: "Insufficient SOL balance",
      code: "INSUFFICIENT_BALANCE",
      required_sol: 0.04,
      current_balance_sol: 0,
      status_code: 400,
    });
    expect(res.body.message).to.include(empty.publicKey.toBase58());

    const poor = await fundedWallet(connection, 0.0125);
    const partial = await post(
      platform.url,
      "/api/add-prompt",
      key,
      tokenized(poor, { private_key: keyEncodings(poor).json }),
    );
    expect(partial.status).to.equal(400);
    expect(partial.body).to.include({
      error: "Insufficient SOL balance",
      required_sol: 0.04,
      current_balance_sol: 0.0125,
    });
    for (const form of [...keyLeakForms(empty), ...keyLeakForms(poor)])
      expect(JSON.stringify([res.body, partial.body])).to.not.include(form);
    expect(await storedFor(userId)).to.deep.equal({ prompts: 0, launches: 0, runs: 0, usage: null });
  });

  it("leaves no half state when the launch fails: the prompt is gone, its count given back, and it can be sent again", async () => {
    const { key, userId } = await h.newKey();
    const wallet = await fundedWallet(connection, 0.1);
    const body = tokenized(wallet, { image_base64: UNLAUNCHABLE_IMAGE });
    const res = await post(unlaunchable.url, "/api/add-prompt", key, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body).to.include({ error: "Tokenization failed", code: "TOKENIZATION_FAILED", status_code: 400 });
    for (const form of keyLeakForms(wallet)) expect(JSON.stringify(res.body)).to.not.include(form);

    // No prompt, listed or not; the count it took is back; the launch is kept, failed, for the record.
    const after = await storedFor(userId);
    expect(after).to.deep.include({ prompts: 0, launches: 1, runs: 1, usage: { free: 0, paid: 0, agents: 0 } });
    const [launch] = await h.deps.ds.query(
      `SELECT status, prompt_id, error, run_id FROM token_launches WHERE user_id = $1`,
      [userId],
    );
    expect(launch).to.include({ status: "failed", prompt_id: null });
    expect(launch.error).to.match(/could not be built/);
    const [run] = await h.deps.ds.query(`SELECT kind, status, error FROM runs WHERE id = $1`, [launch.run_id]);
    expect(run).to.deep.include({ kind: "prompt_tokenize", status: "failed" });
    expect(run.error.code).to.equal("TOKENIZATION_FAILED");
    expect(await listed(key, userId)).to.deep.equal([]);

    // The same prompt again, with an image the launch can hold: no duplicate of a prompt that never was.
    const again = await post(platform.url, "/api/add-prompt", key, { ...body, image_base64: dataUrl(PNG_1PX) });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.tokenized).to.equal(true);
    expect((await storedFor(userId)).usage).to.deep.equal({ free: 1, paid: 0, agents: 0 });
  });

  it("keeps a prompt whose launch is still being confirmed out of every listing and page until its token exists", async () => {
    const { key, userId } = await h.newKey();
    const impatient = await promptsPlatform(h, { launchWaitMs: 300 });
    const chain = h.workers.workers.find((w) => w.name === "chain")!;
    await chain.pause();
    let resumed = false;
    try {
      const wallet = await fundedWallet(connection, 0.05);
      const res = await post(impatient.url, "/api/add-prompt", key, tokenized(wallet, { status: "approved" }));
      expect(res.status, JSON.stringify(res.body)).to.equal(500);
      expect(res.body).to.include({
        error: "Tokenization failed",
        code: "LAUNCH_PENDING",
        listing_url: `${config.http.platformUrl}/prompt/${res.body.id}`,
      });
      const id = res.body.id;

      expect(await listed(key, userId)).to.deep.equal([]);
      expect((await request(platform.url, "GET", `/prompt/${id}`)).status).to.equal(404);
      const listing = await request(h.baseUrl, "POST", "/v1/marketplace/agents", {
        key,
        body: { number_of_items: 100 },
      });
      expect(listing.body.prompts.map((p: { id: string }) => p.id)).to.not.include(id);
      const rater = await h.newKey();
      expect((await post(platform.url, "/api/rate-prompt", rater.key, { id, rating: 5 })).status).to.equal(404);
      const edit = await post(platform.url, "/api/edit-prompt", key, { id, name: "Renamed while launching" });
      expect(edit.status).to.equal(409);
      expect(edit.body.code).to.equal("PROMPT_LAUNCHING");

      chain.resume();
      resumed = true;
      const launched = await eventually(async () => {
        const [row] = await h.deps.ds.query(`SELECT token_address FROM prompts WHERE id = $1`, [id]);
        return row.token_address ?? undefined;
      }, 30_000);
      await readLaunchedToken(connection, launched, wallet.publicKey);
      expect(await listed(key, userId)).to.deep.equal([id]);
      // Launching its token is no way around review: the owner's `status: "approved"` stayed a request.
      expect(
        (await h.deps.ds.query(`SELECT status, requested_status FROM prompts WHERE id = $1`, [id]))[0],
      ).to.deep.equal({ status: "pending", requested_status: "approved" });
      expect(await seenByOthers(id)).to.equal(false);
      await moderate(h, platform.url, id);
      expect(await seenByOthers(id)).to.equal(true);
    } finally {
      if (!resumed) chain.resume();
      await impatient.close();
    }
  });

  it("counts a tokenized prompt against its own daily limit: over it, 429 and nothing launched", async () => {
    const limited = await promptsPlatform(h, { dailyLimits: { freeContent: 1 } });
    try {
      const { key, userId } = await h.newKey();
      const wallet = await fundedWallet(connection, 0.1);
      expect((await post(limited.url, "/api/add-prompt", key, tokenized(wallet))).status).to.equal(200);
      const res = await post(limited.url, "/api/add-prompt", key, tokenized(wallet));
      expect(res.status).to.equal(429);
      expect(res.body.currentUsage).to.include({ freeContent: 1, paidAgents: 0 });
      expect(await storedFor(userId)).to.deep.include({ prompts: 1, launches: 1 });
    } finally {
      await limited.close();
    }
  });

  describe("an edit turning tokenization on", () => {
    it("launches the token first and writes the edit once it has launched", async () => {
      const { key, userId } = await h.newKey();
      const created = await post(platform.url, "/api/add-prompt", key, promptBody());
      const id = created.body.id;
      const wallet = await fundedWallet(connection, 0.05);
      const res = await post(platform.url, "/api/edit-prompt", key, {
        id,
        name: "Tokenized notes",
        tokenized_on: true,
        ticker: "edit",
        creator_wallet: wallet.publicKey.toBase58(),
        private_key: [...wallet.secretKey],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.updated_data).to.include({ tokenized_on: true, name: "Tokenized notes" });
      const [row] = await h.deps.ds.query(`SELECT ticker, token_address FROM prompts WHERE id = $1`, [id]);
      expect(row.ticker).to.equal("EDIT");
      expect((await readLaunchedToken(connection, row.token_address, wallet.publicKey)).metadata).to.include({
        name: "Tokenized notes",
        symbol: "EDIT",
      });
      // The prompt was counted when it was made; its token adds nothing.
      expect((await storedFor(userId)).usage).to.deep.equal({ free: 1, paid: 0, agents: 0 });

      // A launched token can be neither undone nor renamed, nor launched twice.
      const undo = await post(platform.url, "/api/edit-prompt", key, { id, tokenized_on: false, ticker: "OTHER" });
      expect(undo.status).to.equal(400);
      expect(undo.body.errors.map((e: { path: string }) => e.path).sort()).to.deep.equal(["ticker", "tokenized_on"]);
      const again = await post(platform.url, "/api/edit-prompt", key, {
        id,
        tokenized_on: true,
        creator_wallet: wallet.publicKey.toBase58(),
        private_key: [...wallet.secretKey],
      });
      expect(again.status).to.equal(200);
      expect(
        (await h.deps.ds.query(`SELECT count(*)::int AS n FROM token_launches WHERE prompt_id = $1`, [id]))[0].n,
      ).to.equal(1);
    });

    it("leaves the prompt as it was when the launch fails or the wallet is short", async () => {
      const { key, userId } = await h.newKey();
      const created = await post(platform.url, "/api/add-prompt", key, promptBody());
      const id = created.body.id;
      const [before] = await h.deps.ds.query(
        `SELECT name, image_url, tokenized_on, ticker, token_address, updated_at FROM prompts WHERE id = $1`,
        [id],
      );

      const wallet = await fundedWallet(connection, 0.05);
      const edit = {
        id,
        name: "Never written",
        tokenized_on: true,
        ticker: "fail",
        creator_wallet: wallet.publicKey.toBase58(),
        private_key: keyEncodings(wallet).base64,
      };
      const failed = await post(unlaunchable.url, "/api/edit-prompt", key, {
        ...edit,
        image_base64: UNLAUNCHABLE_IMAGE,
      });
      expect(failed.status, JSON.stringify(failed.body)).to.equal(400);
      expect(failed.body.error).to.equal("Tokenization failed");
      const poor = newKeypair();
      const short = await post(platform.url, "/api/edit-prompt", key, {
        ...edit,
        creator_wallet: poor.publicKey.toBase58(),
        private_key: keyEncodings(poor).base64,
      });
      expect(short.status).to.equal(400);
      expect(short.body).to.include({ error: "Insufficient SOL balance", current_balance_sol: 0 });

      const [after] = await h.deps.ds.query(
        `SELECT name, image_url, tokenized_on, ticker, token_address, updated_at FROM prompts WHERE id = $1`,
        [id],
      );
      expect(after).to.deep.equal(before);
      expect(await listed(key, userId)).to.deep.equal([id]);
    });
  });

  describe("with the meteora-dbc launcher's metadata limits", () => {
    let meteora: PromptsPlatform;
    before(async () => {
      meteora = await promptsPlatform(h, { tokenLauncher: "meteora-dbc" });
    });
    after(() => meteora?.close());

    it("refuses names over 32 bytes and image URLs over 200 with 400 before anything is stored, in prompt creation and the token launch", async () => {
      const { key, userId } = await h.newKey();
      const wallet = await fundedWallet(connection, 0.05);
      const longName = `Summaries of long meetings ${"é".repeat(3)}`; // 33 bytes in UTF-8
      const longUrl = `https://images.example/${"b".repeat(180)}.png`;
      const prompt = await post(
        meteora.url,
        "/api/add-prompt",
        key,
        tokenized(wallet, { name: longName, image_url: longUrl }),
      );
      expect(prompt.status).to.equal(400);
      expect(prompt.body.error).to.equal("Validation error");
      expect(prompt.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(["name", "image_url"]);
      expect(prompt.body.errors[0].message).to.match(
        /is 33 bytes in UTF-8; a token launched by meteora-dbc allows at most 32$/,
      );

      const launch = await post(meteora.url, "/api/token/launch", key, {
        name: longName,
        description: "Too long a name.",
        ticker: "LONG",
        private_key: keyEncodings(wallet).base58,
        image: longUrl,
      });
      expect(launch.status).to.equal(400);
      expect(launch.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(["name", "image"]);
      // A base64 image is measured by the URL it will be stored under.
      const stored = await post(meteora.url, "/api/token/launch", key, {
        name: longName,
        description: "Too long a name.",
        ticker: "LONG",
        private_key: keyEncodings(wallet).base58,
        image: dataUrl(PNG_1PX),
      });
      expect(stored.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(["name"]);

      expect(await storedFor(userId)).to.deep.equal({ prompts: 0, launches: 0, runs: 0, usage: null });
      const [listings] = await h.deps.ds.query(`SELECT count(*)::int AS n FROM agent_listings WHERE user_id = $1`, [
        userId,
      ]);
      expect(listings.n).to.equal(0);
    });

    it("passes metadata within the limits on to the next check", async () => {
      const { key } = await h.newKey();
      const empty = newKeypair();
      const exact = "Thirty-two bytes of prompt name!"; // 32 bytes
      const prompt = await post(
        meteora.url,
        "/api/add-prompt",
        key,
        tokenized(empty, {
          name: exact,
          ticker: "ABCDEFGHIJ",
          image_url: `https://images.example/${"c".repeat(173)}.png`,
        }),
      );
      expect(prompt.body.error, JSON.stringify(prompt.body)).to.equal("Insufficient SOL balance");
      const launch = await post(meteora.url, "/api/token/launch", key, {
        name: exact,
        description: "Fits.",
        ticker: "ABCDEFGHIJ",
        private_key: keyEncodings(empty).base58,
      });
      expect(launch.body.error, JSON.stringify(launch.body)).to.equal("Insufficient SOL balance");
    });
  });

  describe("afterwards", () => {
    it("leaves none of the keys it was given in Redis or Postgres", async () => {
      // Every launch job has ended; no launch key may be left.
      const redis = await eventually(async () => {
        const text = await redisText(h.deps.redis);
        return text.includes(":launch-key:") ? undefined : text;
      }, 10_000);
      const postgres = await postgresText(h.deps.ds);
      expect(postgres).to.include("prompt_tokenize");
      for (const keypair of usedKeys) {
        for (const leak of keyLeakForms(keypair)) {
          expect(redis.includes(leak), "a private key is in Redis").to.equal(false);
          expect(postgres.includes(leak), "a private key is in Postgres").to.equal(false);
        }
      }
    });
  });
});
