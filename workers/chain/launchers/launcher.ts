import type { Connection, Keypair, PublicKey, Transaction, VersionedTransaction } from "@solana/web3.js";
import type { TokenLauncherName } from "../../../shared/chain/metadata-limits";

/** What a token launch asks for; the creator pays and signs. */
export interface LaunchRequest {
  name: string;
  /** Already uppercased and checked (1–10 letters and digits). */
  ticker: string;
  description: string;
  /** Public http(s) URL of the image, or null for none. */
  imageUrl: string | null;
  quoteMint: "SOL" | "USDC";
  feeSelection: "market" | "frenzy";
  creator: Keypair;
}

/**
 * The signed transactions of one launch, in the order they must land, and the addresses they
 * create. Built and signed before anything is sent, so their signatures are known (and stored)
 * before the first send.
 */
export interface PreparedLaunch {
  transactions: (Transaction | VersionedTransaction)[];
  mintAddress: PublicKey;
  /** The pool (or config) address when the launcher creates one; null for a bare mint. */
  poolAddress: PublicKey | null;
}

/** A way to launch a token (`TOKEN_LAUNCHER`): a Token-2022 mint, or a Meteora bonding-curve pool. */
export interface TokenLauncher {
  readonly name: TokenLauncherName;
  prepare(connection: Connection, request: LaunchRequest): Promise<PreparedLaunch>;
}
