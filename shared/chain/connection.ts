import { Connection, LAMPORTS_PER_SOL, type PublicKey } from "@solana/web3.js";
import { config } from "../config";

/**
 * A web3.js connection to the configured cluster (`SOLANA_RPC_URL`; its websocket is
 * `SOLANA_WS_URL`, or the RPC port + 1 as on a validator). Reads use `confirmed`: a launch needs
 * a balance and statuses that will not be rolled back, without waiting ~13 s for `finalized`.
 */
export function createChainConnection(): Connection {
  return new Connection(config.solana.rpcUrl, {
    commitment: "confirmed",
    wsEndpoint: config.solana.wsUrl ?? undefined,
  });
}

/** A wallet's balance in SOL. */
export async function balanceSol(connection: Connection, wallet: PublicKey): Promise<number> {
  return (await connection.getBalance(wallet, "confirmed")) / LAMPORTS_PER_SOL;
}
