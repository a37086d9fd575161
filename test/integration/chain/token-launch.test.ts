import { expect } from "chai";
import { Connection, Keypair, LAMPORTS_PER_SOL } from "@solana/web3.js";
import bs58 from "bs58";
import { harness, type Harness } from "../../helpers/harness";
import { postgresText, redisText } from "../../helpers/secret-scan";
import { fundedWallet, keyEncodings, keyLeakForms, newKeypair, usedKeys } from "../../helpers/solana-keys";
import { postLaunch, readLaunchedToken } from "../../helpers/token-launch";
import { PDF_BYTES, PNG_1PX } from "../../helpers/images";
import { config } from "../../../shared/config";

function body(overrides: Record<string, unknown> = {}) {
  return { name: "Honey Scout", description: "Finds honey.", ticker: "hny", ...overrides };
}

describe("POST /api/token/launch on the localnet", () => {
  let h: Harness;
  let connection: Connection;
  let key: string;
  let userId: string;
  before(async function () {
    this.timeout(60_000);
    h = await harness();
    const net = await h.localnet();
    connection = new Connection(net.rpcUrl, "confirmed");
    ({ key, userId } = await h.newKey());
  });

  async function listingCount(): Promise<number> {
    const [row] = await h.deps.ds.query(`SELECT count(*)::int AS n FROM agent_listings WHERE user_id = $1`, [userId]);
    return row.n;
  }

  it("launches a Token-2022 token: the mint, its metadata and the creator's whole supply are on chain", async function () {
    this.timeout(60_000);
    const wallet = await fundedWallet(connection, 1);
    const image = "https://images.example/honey.png";
    const res = await postLaunch(
      h.platformUrl,
      key,
      body({ private_key: keyEncodings(wallet).base58, image, fee_selection: "frenzy", quote_mint: "usdc" }),
    );
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ success: true, tokenized: true, pool_address: null });
    expect(res.body.listing_url).to.equal(`${config.http.platformUrl}/agent/${res.body.id}`);

    const { info, metadata, holding } = await readLaunchedToken(connection, res.body.token_address, wallet.publicKey);
    expect(metadata).to.include({ name: "Honey Scout", symbol: "HNY", uri: image });
    expect(metadata!.updateAuthority!.equals(wallet.publicKey)).to.equal(true);
    const supply = BigInt(config.solana.supply) * 10n ** BigInt(config.solana.decimals);
    expect(info.decimals).to.equal(config.solana.decimals);
    expect(info.supply).to.equal(supply);
    expect(info.mintAuthority).to.equal(null); // revoked: the supply is fixed
    expect(holding.amount).to.equal(supply);
    const spent = LAMPORTS_PER_SOL - (await connection.getBalance(wallet.publicKey));
    expect(spent / LAMPORTS_PER_SOL).to.be.within(0.001, 0.01);

    const [listing] = await h.deps.ds.query(`SELECT * FROM agent_listings WHERE id = $1`, [res.body.id]);
    expect(listing).to.include({
      status: "launched",
      ticker: "HNY",
      token_address: res.body.token_address,
      image_url: image,
      user_id: userId,
    });
    expect(listing.code).to.be.a("string").and.not.equal("");
    const [launch] = await h.deps.ds.query(`SELECT * FROM token_launches WHERE listing_id = $1`, [res.body.id]);
    expect(launch).to.include({
      status: "confirmed",
      quote_mint: "USDC",
      fee_selection: "frenzy",
      creator_wallet: wallet.publicKey.toBase58(),
      launcher: "token-2022",
    });
    expect(
      (await connection.getSignatureStatuses([launch.signature], { searchTransactionHistory: true })).value[0]!.err,
    ).to.equal(null);
    const [run] = await h.deps.ds.query(`SELECT * FROM runs WHERE id = $1`, [launch.run_id]);
    expect(run).to.include({ kind: "token_launch", status: "succeeded" });
    expect(run.output).to.include({ token_address: res.body.token_address, signature: launch.signature });
    // What Bull Board shows of the launch's job: what it is and whose, never the key.
    const job = await h.deps.queues.shards[0].chain.getJob(launch.run_id);
    expect(job!.data).to.include({ kind: "token_launch", account: userId, runId: launch.run_id });
    expect(job!.data.keyId).to.match(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(job!.data)).to.not.include(keyEncodings(wallet).base58);
  });

  it("accepts the key as a JSON array (text or array), base64 and base58", async function () {
    this.timeout(90_000);
    const forms: ((k: Keypair) => unknown)[] = [
      (k) => keyEncodings(k).json,
      (k) => [...k.secretKey],
      (k) => keyEncodings(k).base64,
      (k) => bs58.encode(k.secretKey),
    ];
    for (const form of forms) {
      const wallet = await fundedWallet(connection, 0.05);
      const res = await postLaunch(h.platformUrl, key, body({ ticker: "Fmt1", private_key: form(wallet) }));
      expect(res.status, res.text).to.equal(200);
      const { holding } = await readLaunchedToken(connection, res.body.token_address, wallet.publicKey);
      expect(holding.owner.equals(wallet.publicKey)).to.equal(true);
    }
  });

  it("refuses malformed keys with 400 and never echoes them, storing nothing", async () => {
    const wallet = newKeypair();
    const other = Keypair.generate();
    const secret = [...wallet.secretKey];
    const mixed = Buffer.concat([wallet.secretKey.subarray(0, 32), other.publicKey.toBytes()]);
    const malformed: unknown[] = [
      "",
      JSON.stringify(secret.slice(0, 63)),
      JSON.stringify([...secret.slice(0, 63), 256]),
      JSON.stringify([...secret.slice(0, 63), 1.5]),
      `${keyEncodings(wallet).base58.slice(0, -2)}0O`,
      `${keyEncodings(wallet).base64.slice(0, 40)}$${keyEncodings(wallet).base64.slice(41)}`,
      bs58.encode(wallet.secretKey.subarray(0, 32)),
      bs58.encode(mixed),
      mixed.toString("base64"),
      JSON.stringify([...mixed]),
      42,
    ];
    const before = await listingCount();
    for (const privateKey of malformed) {
      const res = await postLaunch(h.platformUrl, key, body({ private_key: privateKey }));
      expect(res.status, String(privateKey)).to.equal(400);
      expect(res.body).to.include({ error: "Validation error", status_code: 400 });
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(["private_key"]);
      for (const form of [...keyLeakForms(wallet), bs58.encode(mixed), mixed.toString("base64")])
        expect(res.text).to.not.include(form);
      if (typeof privateKey === "string" && privateKey.length > 8)
        expect(res.text).to.not.include(privateKey.slice(0, 40));
    }
    const missing = await postLaunch(h.platformUrl, key, body());
    expect(missing.status).to.equal(400);
    expect(missing.body.errors).to.deep.include({ path: "private_key", message: "private_key is required" });
    expect(await listingCount()).to.equal(before);
  });

  it("lists every field problem at once", async () => {
    const res = await postLaunch(h.platformUrl, key, {
      name: "H",
      description: " ",
      ticker: "bad-ticker!",
      private_key: "[1,2]",
      fee_selection: "fast",
      quote_mint: "EUR",
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal("Validation error");
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).to.deep.equal([
      "description",
      "fee_selection",
      "name",
      "private_key",
      "quote_mint",
      "ticker",
    ]);
    const long = await postLaunch(
      h.platformUrl,
      key,
      body({ ticker: "ABCDEFGHIJK", private_key: keyEncodings(newKeypair()).base58 }),
    );
    expect(long.body.errors).to.deep.equal([{ path: "ticker", message: "ticker must be 1-10 letters or digits" }]);
  });

  it("refuses a wallet under 0.04 SOL with the spec's 400 and its figures", async function () {
    this.timeout(30_000);
    const empty = newKeypair();
    const res = await postLaunch(h.platformUrl, key, body({ private_key: keyEncodings(empty).base58 }));
    expect(res.status).to.equal(400);
    expect(res.body).to.include({
      error: "Insufficient SOL balance",
      required_sol: 0.04,
      current_balance_sol: 0,
      status_code: 400,
    });
    expect(res.body.message).to.be.a("string").and.include(empty.publicKey.toBase58());

    const poor = await fundedWallet(connection, 0.0125);
    const partial = await postLaunch(h.platformUrl, key, body({ private_key: keyEncodings(poor).json }));
    expect(partial.status).to.equal(400);
    expect(partial.body).to.include({
      error: "Insufficient SOL balance",
      required_sol: 0.04,
      current_balance_sol: 0.0125,
    });
    for (const form of keyLeakForms(poor)) expect(partial.text).to.not.include(form);
  });

  it("takes multipart with an image file: the stored image's URL is the token's metadata uri", async function () {
    this.timeout(60_000);
    const wallet = await fundedWallet(connection, 0.05);
    const form = new FormData();
    for (const [name, value] of Object.entries(body({ ticker: "pic", private_key: keyEncodings(wallet).base64 })))
      form.append(name, String(value));
    form.append("image", new Blob([PNG_1PX], { type: "application/octet-stream" }), "honey.bin");
    const res = await postLaunch(h.platformUrl, key, form);
    expect(res.status, res.text).to.equal(200);
    const { metadata } = await readLaunchedToken(connection, res.body.token_address, wallet.publicKey);
    const [listing] = await h.deps.ds.query(`SELECT image_url FROM agent_listings WHERE id = $1`, [res.body.id]);
    expect(metadata!.uri).to.equal(listing.image_url);
    expect(metadata!.uri).to.match(/\/uploads\/[0-9a-f]{64}\.png$/);
    const served = await fetch(`${h.platformUrl}/uploads/${metadata!.uri.split("/uploads/")[1]}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG_1PX)).to.equal(true);
  });

  it("stores a base64 image from JSON, and refuses files that are not images or are too large", async function () {
    this.timeout(60_000);
    const wallet = await fundedWallet(connection, 0.05);
    const res = await postLaunch(
      h.platformUrl,
      key,
      body({ private_key: keyEncodings(wallet).base58, image: `data:image/jpeg;base64,${PNG_1PX.toString("base64")}` }),
    );
    expect(res.status, res.text).to.equal(200);
    expect((await readLaunchedToken(connection, res.body.token_address, wallet.publicKey)).metadata!.uri).to.match(
      /\.png$/,
    );

    const pdf = new FormData();
    for (const [name, value] of Object.entries(body({ private_key: keyEncodings(wallet).base58 })))
      pdf.append(name, String(value));
    pdf.append("image", new Blob([PDF_BYTES]), "honey.png");
    const notImage = await postLaunch(h.platformUrl, key, pdf);
    expect(notImage.status).to.equal(400);
    expect(notImage.body.code).to.equal("IMAGE_UNSUPPORTED_TYPE");

    const big = new FormData();
    for (const [name, value] of Object.entries(body({ private_key: keyEncodings(wallet).base58 })))
      big.append(name, String(value));
    big.append("image", new Blob([PNG_1PX, Buffer.alloc(config.platform.imageMaxBytes)]), "big.png");
    const tooLarge = await postLaunch(h.platformUrl, key, big);
    expect(tooLarge.status).to.equal(400);
    expect(tooLarge.body.code).to.equal("IMAGE_TOO_LARGE");

    const badUrl = await postLaunch(
      h.platformUrl,
      key,
      body({ private_key: keyEncodings(wallet).base58, image: "ftp://images.example/x.png" }),
    );
    expect(badUrl.status).to.equal(400);
  });

  it("answers a launch the network fails with 400 Tokenization failed and leaves its listing failed, never shown", async function () {
    this.timeout(60_000);
    const wallet = await fundedWallet(connection, 0.05);
    // Metadata this large cannot fit in one transaction: the launch cannot be built.
    const res = await postLaunch(
      h.platformUrl,
      key,
      body({ name: "N".repeat(1_500), private_key: keyEncodings(wallet).base58 }),
    );
    expect(res.status, res.text).to.equal(400);
    expect(res.body).to.include({ error: "Tokenization failed", status_code: 400 });
    const [listing] = await h.deps.ds.query(
      `SELECT status, token_address FROM agent_listings WHERE user_id = $1 AND length(name) = 1500`,
      [userId],
    );
    expect(listing).to.deep.equal({ status: "failed", token_address: null });
    for (const form of keyLeakForms(wallet)) expect(res.text).to.not.include(form);
  });

  it("counts a launch as a paid agent: over the daily limit it is a 429 with the counters", async () => {
    const { key: limitedKey, userId: limitedUser } = await h.newKey();
    await h.deps.ds.query(
      `INSERT INTO daily_usage (user_id, day, paid_agents, paid_prompts) VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2, 3)`,
      [limitedUser, config.platform.dailyLimits.paidAgents],
    );
    const wallet = await fundedWallet(connection, 0.05);
    const res = await postLaunch(h.platformUrl, limitedKey, body({ private_key: keyEncodings(wallet).base58 }));
    expect(res.status).to.equal(429);
    expect(res.body).to.include({ error: "Daily limit exceeded", status_code: 429 });
    expect(res.body.currentUsage).to.include({
      paidAgents: config.platform.dailyLimits.paidAgents,
      paidPrompts: 3,
      freeContent: 0,
    });
    expect(res.body.limits).to.deep.equal(config.platform.dailyLimits);
    expect(new Date(res.body.resetTime).getUTCHours()).to.equal(0);
    const [rows] = await h.deps.ds.query(`SELECT count(*)::int AS n FROM agent_listings WHERE user_id = $1`, [
      limitedUser,
    ]);
    expect(rows.n).to.equal(0);
  });

  it("requires an API key (no session tokens) and answers other methods with 405 Allow: POST", async () => {
    for (const auth of [null, "sk-not-a-real-key", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln"]) {
      const res = await postLaunch(h.platformUrl, auth, body({ private_key: "x" }));
      expect(res.status).to.equal(401);
      expect(res.body).to.include({
        error: "Authentication failed",
        message: "Invalid or missing API key. Please check your API key and try again.",
      });
      expect(res.body.how_to_get_key).to.match(/\/platform\/api-keys$/);
    }
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await fetch(`${h.platformUrl}/api/token/launch`, {
        method,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).to.equal(405);
      expect(res.headers.get("allow")).to.equal("POST");
      expect(await res.json()).to.include({ status_code: 405 });
    }
    const text = await postLaunch(h.platformUrl, key, body() as never, { "content-type": "text/plain" });
    expect(text.status).to.equal(400);
  });

  it("leaves none of the keys it was given in Redis or Postgres", async () => {
    const [redis, postgres] = await Promise.all([redisText(h.deps.redis), postgresText(h.deps.ds)]);
    expect(postgres).to.include("Honey Scout");
    for (const keypair of usedKeys) {
      for (const leak of keyLeakForms(keypair)) {
        expect(redis.includes(leak), "a private key is in Redis").to.equal(false);
        expect(postgres.includes(leak), "a private key is in Postgres").to.equal(false);
      }
    }
  });
});
