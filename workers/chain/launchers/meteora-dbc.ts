import { Keypair, Transaction, type Connection, type PublicKey } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "@solana/spl-token";
import {
  PartnerService,
  deriveDbcPoolAddress,
  deriveDbcTokenVaultAddress,
  deriveMintMetadata,
  type ConfigParameters,
} from "@meteora-ag/dynamic-bonding-curve-sdk";
import { metadataOverflows } from "../../../shared/chain/metadata-limits";
import type { LaunchRequest, PreparedLaunch, TokenLauncher } from "./launcher";
import { dbcConfigParameters, quoteSide } from "./meteora-curve";

export { METADATA_LIMITS } from "../../../shared/chain/metadata-limits";

/** What the launcher takes from `config.solana`. */
export interface MeteoraDbcSettings {
  supply: number;
  decimals: number;
  usdcMint: string;
}

interface ConfigAndPool {
  params: ConfigParameters;
  config: PublicKey;
  quoteMint: PublicKey;
  baseMint: PublicKey;
  creator: PublicKey;
  name: string;
  symbol: string;
  uri: string;
}

/**
 * The SDK's partner service, building the same two instructions as its `createConfigAndPool`, but
 * without asking the chain which token program owns the quote mint: wrapped SOL and USDC are both
 * classic SPL Token mints, so the transaction needs nothing from the cluster but a blockhash.
 */
class DbcTransactionBuilder extends PartnerService {
  async configAndPool(p: ConfigAndPool): Promise<{ transaction: Transaction; pool: PublicKey }> {
    const createConfig = await this.createConfig({
      ...p.params,
      config: p.config,
      feeClaimer: p.creator,
      leftoverReceiver: p.creator,
      quoteMint: p.quoteMint,
      payer: p.creator,
    });
    const pool = deriveDbcPoolAddress(p.quoteMint, p.baseMint, p.config);
    const createPool = await this.initializeSplPool({
      name: p.name,
      symbol: p.symbol,
      uri: p.uri,
      pool,
      config: p.config,
      payer: p.creator,
      poolCreator: p.creator,
      baseMint: p.baseMint,
      baseVault: deriveDbcTokenVaultAddress(pool, p.baseMint),
      quoteVault: deriveDbcTokenVaultAddress(pool, p.quoteMint),
      quoteMint: p.quoteMint,
      mintMetadata: deriveMintMetadata(p.baseMint),
      tokenQuoteProgram: TOKEN_PROGRAM_ID,
    });
    return { transaction: new Transaction().add(createConfig, createPool), pool };
  }
}

/**
 * A Meteora Dynamic Bonding Curve launch: one transaction that creates a fresh config (the curve,
 * its fees, the quote mint) and the pool on it; the pool instruction creates the token mint and
 * its metadata. The creator pays, owns the pool and claims its fees. Signed by the creator, the new
 * config keypair and the new mint keypair, so it lands whole or not at all.
 */
export class MeteoraDbcLauncher implements TokenLauncher {
  readonly name = "meteora-dbc" as const;

  constructor(private readonly settings: MeteoraDbcSettings) {}

  async prepare(connection: Connection, request: LaunchRequest): Promise<PreparedLaunch> {
    const uri = request.imageUrl ?? "";
    checkMetadata(request.name, request.ticker, uri);
    const quote = quoteSide(request.quoteMint, this.settings.usdcMint);
    const params = dbcConfigParameters({
      quote,
      feeSelection: request.feeSelection,
      supply: this.settings.supply,
      decimals: this.settings.decimals,
    });
    const config = Keypair.generate();
    const mint = Keypair.generate();
    const creator = request.creator;

    const { transaction, pool } = await new DbcTransactionBuilder(connection, "confirmed").configAndPool({
      params,
      config: config.publicKey,
      quoteMint: quote.mint,
      baseMint: mint.publicKey,
      creator: creator.publicKey,
      name: request.name,
      symbol: request.ticker,
      uri,
    });
    // The only call to the cluster: it works the same against a local JSON-RPC and a real one.
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    transaction.feePayer = creator.publicKey;
    transaction.recentBlockhash = blockhash;
    transaction.lastValidBlockHeight = lastValidBlockHeight;
    transaction.sign(creator, config, mint);
    return { transactions: [transaction], mintAddress: mint.publicKey, poolAddress: pool };
  }
}

/** The API refuses such input with a 400 already; this guards launches queued before a limit applied. */
function checkMetadata(name: string, symbol: string, uri: string): void {
  const [over] = metadataOverflows("meteora-dbc", { name, symbol, uri });
  if (over)
    throw new RangeError(`Token ${over.field} is ${over.bytes} bytes; a Meteora pool allows at most ${over.max}`);
}
