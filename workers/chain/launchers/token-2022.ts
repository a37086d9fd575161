import { Keypair, SystemProgram, Transaction, type Connection } from "@solana/web3.js";
import {
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMetadataPointerInstruction,
  createInitializeMintInstruction,
  createMintToInstruction,
  createSetAuthorityInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getMintLen,
  LENGTH_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TYPE_SIZE,
} from "@solana/spl-token";
import { createInitializeInstruction, pack, type TokenMetadata } from "@solana/spl-token-metadata";
import { config } from "../../../shared/config";
import type { LaunchRequest, PreparedLaunch, TokenLauncher } from "./launcher";

export interface Token2022Options {
  /** Whole tokens minted to the creator (`TOKEN_SUPPLY`). */
  supply: number;
  /** `TOKEN_DECIMALS`. */
  decimals: number;
}

/**
 * A plain Token-2022 mint in one transaction: the mint account with a MetadataPointer to itself and
 * its TokenMetadata (name, ticker as symbol, image URL as uri), the creator's associated token
 * account, the whole supply minted to it, and the mint authority revoked so the supply is fixed.
 * The creator pays and remains the metadata's update authority. No pool: `poolAddress` is null.
 */
export class Token2022Launcher implements TokenLauncher {
  readonly name = "token-2022" as const;

  constructor(
    private readonly options: Token2022Options = { supply: config.solana.supply, decimals: config.solana.decimals },
  ) {}

  async prepare(connection: Connection, request: LaunchRequest): Promise<PreparedLaunch> {
    const creator = request.creator.publicKey;
    const mint = Keypair.generate();
    const metadata: TokenMetadata = {
      mint: mint.publicKey,
      updateAuthority: creator,
      name: request.name,
      symbol: request.ticker,
      uri: request.imageUrl ?? "",
      additionalMetadata: [],
    };
    // The mint account is created at its base size; the metadata initialisation grows it, so the
    // rent must already cover the final size.
    const mintSpace = getMintLen([ExtensionType.MetadataPointer]);
    const finalSpace = mintSpace + TYPE_SIZE + LENGTH_SIZE + pack(metadata).length;
    const [rent, { blockhash, lastValidBlockHeight }] = await Promise.all([
      connection.getMinimumBalanceForRentExemption(finalSpace),
      connection.getLatestBlockhash(),
    ]);
    const account = getAssociatedTokenAddressSync(mint.publicKey, creator, false, TOKEN_2022_PROGRAM_ID);
    const amount = BigInt(this.options.supply) * 10n ** BigInt(this.options.decimals);

    const tx = new Transaction({ feePayer: creator, blockhash, lastValidBlockHeight }).add(
      SystemProgram.createAccount({
        fromPubkey: creator,
        newAccountPubkey: mint.publicKey,
        space: mintSpace,
        lamports: rent,
        programId: TOKEN_2022_PROGRAM_ID,
      }),
      createInitializeMetadataPointerInstruction(mint.publicKey, creator, mint.publicKey, TOKEN_2022_PROGRAM_ID),
      createInitializeMintInstruction(mint.publicKey, this.options.decimals, creator, null, TOKEN_2022_PROGRAM_ID),
      createInitializeInstruction({
        programId: TOKEN_2022_PROGRAM_ID,
        metadata: mint.publicKey,
        updateAuthority: creator,
        mint: mint.publicKey,
        mintAuthority: creator,
        name: metadata.name,
        symbol: metadata.symbol,
        uri: metadata.uri,
      }),
      createAssociatedTokenAccountIdempotentInstruction(
        creator,
        account,
        creator,
        mint.publicKey,
        TOKEN_2022_PROGRAM_ID,
      ),
      createMintToInstruction(mint.publicKey, account, creator, amount, [], TOKEN_2022_PROGRAM_ID),
      createSetAuthorityInstruction(mint.publicKey, creator, AuthorityType.MintTokens, null, [], TOKEN_2022_PROGRAM_ID),
    );
    tx.sign(request.creator, mint);
    return { transactions: [tx], mintAddress: mint.publicKey, poolAddress: null };
  }
}
