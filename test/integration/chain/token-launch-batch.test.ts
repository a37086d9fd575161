import { expect } from "chai";
import { Connection } from "@solana/web3.js";
import { config } from "../../../shared/config";
import { MAX_BATCH_LAUNCHES } from "../../../api/schemas/token-launch-batch.schema";
import { harness, type Harness } from "../../helpers/harness";
import { fundedWallet, keyEncodings, keyLeakForms, newKeypair } from "../../helpers/solana-keys";
import { readLaunchedToken } from "../../helpers/token-launch";

function item(ticker: string, overrides: Record<string, unknown> = {}) {
  return { name: `Batch ${ticker}`, description: "One of a batch.", ticker, ...overrides };
}

describe("POST /api/token/launch/batch on the localnet", () => {
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

  async function postBatch(token: string | null, body: unknown) {
    const res = await fetch(`${h.platformUrl}/api/token/launch/batch`, {
      method: "POST",
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) };
  }

  async function listingCount(user = userId): Promise<number> {
    const [row] = await h.deps.ds.query(`SELECT count(*)::int AS n FROM agent_listings WHERE user_id = $1`, [user]);
    return row.n;
  }

  it("launches every item, each with its own listing and token, and answers 200 in order", async function () {
    this.timeout(90_000);
    const wallet = await fundedWallet(connection, 1);
    const own = await fundedWallet(connection, 0.5);
    const res = await postBatch(key, {
      private_key: keyEncodings(wallet).base58,
      tokens: [item("bta"), item("BTB", { private_key: keyEncodings(own).json, fee_selection: "frenzy" })],
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ success: true, total: 2, succeeded: 2, failed: 0 });
    expect(res.body.failures).to.deep.equal([]);
    expect(res.body.results.map((r: any) => r.index)).to.deep.equal([0, 1]);
    for (const [i, r] of res.body.results.entries()) {
      expect(r).to.include({ success: true, tokenized: true });
      expect(r.listing_url).to.equal(`${config.http.platformUrl}/agent/${r.id}`);
      const creator = i === 0 ? wallet : own;
      const { metadata } = await readLaunchedToken(connection, r.token_address, creator.publicKey);
      expect(metadata!.symbol).to.equal(i === 0 ? "BTA" : "BTB");
    }
    const [launch] = await h.deps.ds.query(
      `SELECT creator_wallet, fee_selection FROM token_launches WHERE listing_id = $1`,
      [res.body.results[1].id],
    );
    expect(launch).to.deep.equal({ creator_wallet: own.publicKey.toBase58(), fee_selection: "frenzy" });
    for (const form of [...keyLeakForms(wallet), ...keyLeakForms(own)]) expect(res.text).to.not.include(form);
  });

  it("fails a bad item alone: 207 with each failure's single-launch error body, the good items launched", async function () {
    this.timeout(90_000);
    const wallet = await fundedWallet(connection, 1);
    const empty = newKeypair();
    const before = await listingCount();
    const res = await postBatch(key, {
      private_key: keyEncodings(wallet).base58,
      tokens: [
        item("GOOD"),
        item("not a ticker!"),
        item("POOR", { private_key: keyEncodings(empty).base58 }),
        { name: 7, ticker: "X" },
      ],
    });
    expect(res.status, res.text).to.equal(207);
    expect(res.body).to.include({ success: false, total: 4, succeeded: 1, failed: 3 });
    const [good, badTicker, poor, badTypes] = res.body.results;
    expect(good).to.include({ success: true, index: 0, tokenized: true });
    expect(badTicker).to.deep.include({ success: false, index: 1 });
    expect(badTicker.error).to.include({ error: "Validation error", code: "VALIDATION_ERROR", status_code: 400 });
    expect(badTicker.error.errors.map((e: any) => e.path)).to.deep.equal(["ticker"]);
    expect(poor.error).to.include({ error: "Insufficient SOL balance", required_sol: 0.04, status_code: 400 });
    expect(badTypes.error.errors.map((e: any) => e.path).sort()).to.deep.equal(["description", "name"]);
    expect(res.body.failures.map((f: any) => f.index)).to.deep.equal([1, 2, 3]);
    expect(await listingCount()).to.equal(before + 1);
  });

  it("counts each item as a paid agent: items over the daily limit fail with its 429 body", async function () {
    this.timeout(60_000);
    const limited = await h.newKey();
    await h.deps.ds.query(
      `INSERT INTO daily_usage (user_id, day, paid_agents) VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2)`,
      [limited.userId, config.platform.dailyLimits.paidAgents - 1],
    );
    const wallet = await fundedWallet(connection, 1);
    const res = await postBatch(limited.key, {
      private_key: keyEncodings(wallet).base58,
      tokens: [item("LIMA"), item("LIMB")],
    });
    expect(res.status, res.text).to.equal(207);
    expect(res.body).to.include({ succeeded: 1, failed: 1 });
    expect(res.body.failures[0].error).to.include({ error: "Daily limit exceeded", status_code: 429 });
    expect(await listingCount(limited.userId)).to.equal(1);
  });

  it("refuses a bad envelope with a 400 and launches nothing; requires an API key", async () => {
    const before = await listingCount();
    const many = Array.from({ length: MAX_BATCH_LAUNCHES + 1 }, (_, i) => item(`T${i}`));
    for (const [body, path] of [
      [{}, "tokens"],
      [{ tokens: [] }, "tokens"],
      [{ tokens: many }, "tokens"],
      [{ tokens: "HNY" }, "tokens"],
      [{ tokens: ["HNY"] }, "tokens.0"],
      [{ tokens: [item("OK")], private_key: "not a key" }, "private_key"],
    ] as const) {
      const res = await postBatch(key, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
      expect(res.body).to.include({ error: "Validation error", status_code: 400 });
      expect(res.body.errors.map((e: any) => e.path)).to.include(path);
      expect(res.text).to.not.include("not a key");
    }
    expect(await listingCount()).to.equal(before);
    const anonymous = await postBatch(null, { tokens: [item("ANON")] });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.how_to_get_key).to.match(/\/platform\/api-keys$/);
  });
});
