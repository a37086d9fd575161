import type { Connection, PublicKey } from "@solana/web3.js";
import { balanceSol } from "../../shared/chain/connection";
import { config } from "../../shared/config";
import { PlatformError } from "../platform-error";

/**
 * The spec's balance check before a launch (E6, and E7's tokenization): a wallet under
 * `TOKEN_LAUNCH_MIN_SOL` is a 400 `Insufficient SOL balance` with `required_sol` and
 * `current_balance_sol`; a cluster that cannot be asked is a 500. Nothing is stored before it.
 */
export async function assertFunded(connection: Connection, wallet: PublicKey): Promise<void> {
  let balance: number;
  try {
    balance = await balanceSol(connection, wallet);
  } catch {
    throw new PlatformError(
      500,
      "Internal server error",
      "The Solana network could not be reached to check the wallet's balance",
      {},
      "CHAIN_UNAVAILABLE",
    );
  }
  const required = config.solana.minBalanceSol;
  if (balance < required) {
    throw new PlatformError(
      400,
      "Insufficient SOL balance",
      `The wallet ${wallet.toBase58()} holds ${balance} SOL; a token launch needs at least ${required} SOL`,
      { required_sol: required, current_balance_sol: balance },
      "INSUFFICIENT_BALANCE",
    );
  }
}
