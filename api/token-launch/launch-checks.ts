import type { Connection, PublicKey } from "@solana/web3.js";
import { balanceSol } from "../../shared/chain/connection";
import { metadataOverflows, type TokenLauncherName, type TokenMetadataText } from "../../shared/chain/metadata-limits";
import { config } from "../../shared/config";
import { PlatformError, platformValidationError } from "../platform-error";

// What is checked before any launch (a listing's, and a prompt's token on creation or edit) is stored or queued.

const WHAT: Record<keyof TokenMetadataText, string> = {
  name: "the token's name",
  symbol: "the ticker",
  uri: "the image URL",
};

/**
 * Refuses, with a 400 `Validation error` naming the request's fields, metadata the configured
 * launcher would refuse when it builds the launch (a Meteora pool: name 32 bytes, ticker 10, image
 * URL 200). Checked before anything is stored or queued. `fields` maps each metadata field to the
 * request field it comes from. Messages give sizes, never the values.
 */
export function assertMetadataFits(
  launcher: TokenLauncherName,
  text: TokenMetadataText,
  fields: Record<keyof TokenMetadataText, string>,
): void {
  const problems = metadataOverflows(launcher, text).map((over) => ({
    path: fields[over.field],
    message: `${fields[over.field]}: ${WHAT[over.field]} is ${over.bytes} bytes in UTF-8; a token launched by ${launcher} allows at most ${over.max}`,
  }));
  if (problems.length) throw platformValidationError(problems);
}

/**
 * The balance check before a launch (a listing's, and a new prompt's tokenization): a wallet under
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
