import { expect } from "chai";
import { Connection, Keypair, PublicKey, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { NATIVE_MINT } from "@solana/spl-token";
import { BorshInstructionCoder, type Idl } from "@coral-xyz/anchor";
import {
  DYNAMIC_BONDING_CURVE_PROGRAM_ID,
  DynamicBondingCurveIdl,
  deriveDbcPoolAddress,
  deriveMintMetadata,
  getMigrationThresholdPrice,
  getPriceFromSqrtPrice,
  getSqrtPriceFromMarketCap,
} from "@meteora-ag/dynamic-bonding-curve-sdk";
import type { LaunchRequest, PreparedLaunch } from "../../workers/chain/launchers/launcher";
import { MeteoraDbcLauncher } from "../../workers/chain/launchers/meteora-dbc";
import { launcherFor } from "../../workers/chain/launchers";
import { config } from "../../shared/config";
import { startBlockhashRpc, type BlockhashRpc } from "../helpers/blockhash-rpc";

const MAINNET_USDC = new PublicKey("EPjFWdd5AufqSSqeM2qTVu3mTJp8ixD2Cd4BBcUoTdDp");
const DEVNET_USDC = new PublicKey("4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU");
const SUPPLY = 1_000_000_000;
const DECIMALS = 6;
const MAX_TRANSACTION_BYTES = 1232;

const idl = DynamicBondingCurveIdl as unknown as Idl;
const coder = new BorshInstructionCoder(idl);

interface Decoded {
  name: string;
  data: any;
  accounts: Record<string, PublicKey>;
}

/** Decodes one DBC instruction with the program's own IDL and names its accounts. */
function decode(ix: TransactionInstruction): Decoded {
  expect(ix.programId.equals(DYNAMIC_BONDING_CURVE_PROGRAM_ID)).to.equal(true);
  const decoded = coder.decode(Buffer.from(ix.data));
  expect(decoded, "instruction decodes with the DBC IDL").to.not.equal(null);
  const spec = idl.instructions.find((i) => i.name === decoded!.name)!;
  const accounts: Record<string, PublicKey> = {};
  spec.accounts.forEach((account, index) => (accounts[account.name] = ix.keys[index].pubkey));
  return { name: decoded!.name, data: decoded!.data, accounts };
}

/** Market cap in quote units at a Q64 sqrt price, for this test's supply and decimals. */
function marketCapAt(sqrtPrice: any, quoteDecimals: number): number {
  return getPriceFromSqrtPrice(sqrtPrice, DECIMALS, quoteDecimals).mul(SUPPLY).toNumber();
}

function request(overrides: Partial<LaunchRequest> = {}): LaunchRequest {
  return {
    name: "Hive Mind",
    ticker: "HIVE",
    description: "A swarm of agents",
    imageUrl: "https://cdn.example.com/hive.png",
    quoteMint: "SOL",
    feeSelection: "market",
    creator: Keypair.generate(),
    ...overrides,
  };
}

describe("meteora-dbc launcher", () => {
  let rpc: BlockhashRpc;
  let connection: Connection;
  const launcher = new MeteoraDbcLauncher({ supply: SUPPLY, decimals: DECIMALS, usdcMint: MAINNET_USDC.toBase58() });

  before(async () => {
    rpc = await startBlockhashRpc();
    connection = new Connection(rpc.url, "confirmed");
  });
  after(() => rpc.close());

  /**
   * What the SDK computes from the spec's market caps for a 1,000,000,000 × 10^6 supply: the start
   * and migration sqrt prices (Q64) and the quote a pool must raise to graduate.
   */
  const curves = [
    {
      quote: "SOL",
      quoteMint: NATIVE_MINT,
      quoteDecimals: 9,
      initialCap: 18,
      migrationCap: 400,
      sqrtStartPrice: "78262908055806900",
      migrationSqrtPrice: "368934881474191037",
      threshold: "70002946327",
    },
    {
      quote: "USDC",
      quoteMint: MAINNET_USDC,
      quoteDecimals: 6,
      initialCap: 4_000,
      migrationCap: 9_000,
      sqrtStartPrice: "36893492919652454",
      migrationSqrtPrice: "55340232221128654",
      threshold: "3600000000",
    },
  ] as const;
  /** Trading fee numerator (of 1e9) and the DAMM v2 fee option (FixedBps100 = 2, FixedBps200 = 3). */
  const fees = [
    { fee: "market", feeNumerator: 10_000_000, migratedFeeOption: 2 },
    { fee: "frenzy", feeNumerator: 20_000_000, migratedFeeOption: 3 },
  ] as const;
  const cases = curves.flatMap((curve) => fees.map((fee) => ({ ...curve, ...fee })));

  const built = new Map<string, { req: LaunchRequest; launch: PreparedLaunch; config: Decoded; pool: Decoded }>();
  before(async () => {
    for (const c of cases) {
      const req = request({ quoteMint: c.quote, feeSelection: c.fee, ticker: `${c.quote}${c.fee.length}` });
      const launch = await launcher.prepare(connection, req);
      const [tx] = launch.transactions as Transaction[];
      built.set(`${c.quote}/${c.fee}`, {
        req,
        launch,
        config: decode(tx.instructions[0]),
        pool: decode(tx.instructions[1]),
      });
    }
  });

  for (const c of cases) {
    describe(`${c.quote} × ${c.fee}`, () => {
      it("is one transaction: create the config, then the pool on it, signed by creator, config and mint", () => {
        const { req, launch, config: cfg, pool } = built.get(`${c.quote}/${c.fee}`)!;
        expect(launch.transactions).to.have.length(1);
        const tx = launch.transactions[0] as Transaction;
        expect(tx).to.be.instanceOf(Transaction);
        expect(tx.instructions.map((ix) => decode(ix).name)).to.deep.equal([
          "create_config",
          "initialize_virtual_pool_with_spl_token",
        ]);
        expect(tx.feePayer!.equals(req.creator.publicKey)).to.equal(true);
        expect(rpc.blockhashes).to.include(tx.recentBlockhash);
        expect(tx.verifySignatures()).to.equal(true);
        const signers = tx.signatures.map((s) => s.publicKey.toBase58()).sort();
        expect(signers).to.deep.equal(
          [req.creator.publicKey, cfg.accounts.config, launch.mintAddress].map((k) => k.toBase58()).sort(),
        );
        expect(tx.serialize().length).to.be.at.most(MAX_TRANSACTION_BYTES);
        expect(pool.accounts.config.equals(cfg.accounts.config)).to.equal(true);
      });

      it("trades against the requested quote mint", () => {
        const { config: cfg, pool } = built.get(`${c.quote}/${c.fee}`)!;
        expect(cfg.accounts.quote_mint.toBase58()).to.equal(c.quoteMint.toBase58());
        expect(pool.accounts.quote_mint.toBase58()).to.equal(c.quoteMint.toBase58());
      });

      it(`runs the curve from a ${c.initialCap} to a ${c.migrationCap} ${c.quote} market cap`, () => {
        const p = built.get(`${c.quote}/${c.fee}`)!.config.data.config_parameters;
        // The values the SDK computes from the market caps…
        expect(p.sqrt_start_price.toString()).to.equal(c.sqrtStartPrice);
        expect(p.migration_quote_threshold.toString()).to.equal(c.threshold);
        const curve = p.curve.map((point: any) => ({ sqrtPrice: point.sqrt_price, liquidity: point.liquidity }));
        const migrationSqrtPrice = getMigrationThresholdPrice(p.migration_quote_threshold, p.sqrt_start_price, curve);
        expect(migrationSqrtPrice.toString()).to.equal(c.migrationSqrtPrice);
        expect(p.curve[0].sqrt_price.toString()).to.equal(c.migrationSqrtPrice);
        // …and what they mean: the market caps the spec asks for, at this supply and these decimals.
        expect(marketCapAt(p.sqrt_start_price, c.quoteDecimals)).to.be.closeTo(c.initialCap, c.initialCap * 1e-6);
        expect(marketCapAt(migrationSqrtPrice, c.quoteDecimals)).to.be.closeTo(c.migrationCap, c.migrationCap * 1e-6);
        const expectedMigration = getSqrtPriceFromMarketCap(c.migrationCap, SUPPLY, DECIMALS, c.quoteDecimals);
        expect(Number(migrationSqrtPrice.sub(expectedMigration).abs().toString())).to.be.below(10);
        expect(p.token_decimal).to.equal(DECIMALS);
        expect(p.token_supply.pre_migration_token_supply.toString()).to.equal(String(SUPPLY * 10 ** DECIMALS));
        expect(p.token_supply.post_migration_token_supply.toString()).to.equal(String(SUPPLY * 10 ** DECIMALS));
      });

      it(`charges a flat ${c.feeNumerator / 1e7}% trading fee in the quote token, kept after graduation`, () => {
        const p = built.get(`${c.quote}/${c.fee}`)!.config.data.config_parameters;
        expect(p.pool_fees.base_fee.cliff_fee_numerator.toString()).to.equal(String(c.feeNumerator)); // of 1e9
        expect(p.pool_fees.base_fee.first_factor).to.equal(0); // no fee scheduler periods: a flat fee
        expect(p.pool_fees.base_fee.second_factor.toString()).to.equal("0");
        expect(p.pool_fees.base_fee.third_factor.toString()).to.equal("0");
        expect(p.pool_fees.dynamic_fee).to.equal(null);
        expect(p.collect_fee_mode).to.equal(0); // quote token
        expect(p.migration_fee_option).to.equal(c.migratedFeeOption); // DAMM v2 pool at the same 1% / 2%
      });

      it("creates the named token for the creator, who pays, owns the pool and claims its fees", () => {
        const { req, launch, config: cfg, pool } = built.get(`${c.quote}/${c.fee}`)!;
        expect(pool.data.params).to.deep.equal({ name: req.name, symbol: req.ticker, uri: req.imageUrl });
        expect(pool.accounts.base_mint.equals(launch.mintAddress)).to.equal(true);
        expect(pool.accounts.mint_metadata.equals(deriveMintMetadata(launch.mintAddress))).to.equal(true);
        expect(pool.accounts.pool.equals(launch.poolAddress!)).to.equal(true);
        expect(
          launch.poolAddress!.equals(deriveDbcPoolAddress(c.quoteMint, launch.mintAddress, cfg.accounts.config)),
        ).to.equal(true);
        for (const account of [
          pool.accounts.creator,
          pool.accounts.payer,
          cfg.accounts.payer,
          cfg.accounts.fee_claimer,
          cfg.accounts.leftover_receiver,
        ]) {
          expect(account.equals(req.creator.publicKey)).to.equal(true);
        }
      });
    });
  }

  it("gives SOL and USDC different curves and market and frenzy the same curve at different fees", () => {
    const params = (key: string) => built.get(key)!.config.data.config_parameters;
    const curveOf = (key: string) =>
      JSON.stringify([params(key).sqrt_start_price, params(key).migration_quote_threshold, params(key).curve]);
    expect(curveOf("SOL/market")).to.equal(curveOf("SOL/frenzy"));
    expect(curveOf("USDC/market")).to.equal(curveOf("USDC/frenzy"));
    expect(curveOf("SOL/market")).to.not.equal(curveOf("USDC/market"));
    const feeOf = (key: string) => params(key).pool_fees.base_fee.cliff_fee_numerator.toNumber();
    expect(feeOf("SOL/frenzy")).to.equal(2 * feeOf("SOL/market"));
    expect(feeOf("USDC/frenzy")).to.equal(2 * feeOf("USDC/market"));
  });

  it("uses fresh config and mint keypairs for every launch", () => {
    const mints = [...built.values()].map((b) => b.launch.mintAddress.toBase58());
    const configs = [...built.values()].map((b) => b.config.accounts.config.toBase58());
    expect(new Set(mints).size).to.equal(cases.length);
    expect(new Set(configs).size).to.equal(cases.length);
  });

  it("asks the cluster for nothing but a blockhash", () => {
    expect(rpc.methods.length).to.be.at.least(cases.length);
    expect(new Set(rpc.methods)).to.deep.equal(new Set(["getLatestBlockhash"]));
  });

  it("leaves the uri empty when there is no image", async () => {
    const launch = await launcher.prepare(connection, request({ imageUrl: null }));
    expect(decode((launch.transactions[0] as Transaction).instructions[1]).data.params.uri).to.equal("");
  });

  it("fits one transaction at the longest name, symbol and uri the metadata allows", async () => {
    const req = request({
      name: "é".repeat(16),
      ticker: "ABCDEFGHIJ",
      imageUrl: `https://cdn.example.com/${"a".repeat(176)}`,
    });
    const launch = await launcher.prepare(connection, req);
    const tx = launch.transactions[0] as Transaction;
    expect(tx.serialize().length).to.be.at.most(MAX_TRANSACTION_BYTES);
    expect(decode(tx.instructions[1]).data.params.name).to.equal(req.name);
  });

  it("refuses metadata the pool would reject, before asking the cluster anything", async () => {
    const asked = rpc.methods.length;
    for (const overrides of [
      { name: "é".repeat(17) }, // 34 bytes
      { ticker: "ABCDEFGHIJK" },
      { imageUrl: `https://cdn.example.com/${"a".repeat(177)}` },
    ]) {
      let error: unknown;
      await launcher.prepare(connection, request(overrides)).catch((err) => (error = err));
      expect(error).to.be.instanceOf(RangeError);
      expect((error as Error).message).to.match(
        /^Token (name|symbol|uri) is \d+ bytes; a Meteora pool allows at most \d+$/,
      );
    }
    expect(rpc.methods.length).to.equal(asked);
  });

  it("takes decimals and supply from its settings", async () => {
    const nine = new MeteoraDbcLauncher({ supply: 500_000_000, decimals: 9, usdcMint: MAINNET_USDC.toBase58() });
    const launch = await nine.prepare(connection, request());
    const p = decode((launch.transactions[0] as Transaction).instructions[0]).data.config_parameters;
    expect(p.token_decimal).to.equal(9);
    expect(p.token_supply.pre_migration_token_supply.toString()).to.equal("500000000000000000");
    const cap = getPriceFromSqrtPrice(p.sqrt_start_price, 9, 9).mul(500_000_000).toNumber();
    expect(cap).to.be.closeTo(18, 18e-6);
  });
});

describe("launcherFor", () => {
  it("builds the meteora-dbc launcher from the Solana settings, USDC mint included", async () => {
    const launcher = launcherFor("meteora-dbc", { ...config.solana, usdcMint: DEVNET_USDC.toBase58() });
    expect(launcher).to.be.instanceOf(MeteoraDbcLauncher);
    expect(launcher.name).to.equal("meteora-dbc");
    const rpc = await startBlockhashRpc();
    try {
      const launch = await launcher.prepare(new Connection(rpc.url), request({ quoteMint: "USDC" }));
      const cfg = decode((launch.transactions[0] as Transaction).instructions[0]);
      expect(cfg.accounts.quote_mint.equals(DEVNET_USDC)).to.equal(true);
      expect(cfg.data.config_parameters.token_decimal).to.equal(config.solana.decimals);
    } finally {
      await rpc.close();
    }
  });

  it("refuses a name it does not know", () => {
    expect(() => launcherFor("pump-fun")).to.throw('Unknown token launcher "pump-fun"');
  });
});
