import bs58 from "bs58";
import { Keypair, LAMPORTS_PER_SOL, type Connection } from "@solana/web3.js";

/** Every secret key a test handed to the service, so leak checks can look for all of them. */
export const usedKeys: Keypair[] = [];

/** A fresh key pair, remembered for the leak checks. */
export function newKeypair(): Keypair {
  const keypair = Keypair.generate();
  usedKeys.push(keypair);
  return keypair;
}

/** A fresh wallet holding `sol` SOL on the localnet (airdropped and confirmed). */
export async function fundedWallet(connection: Connection, sol: number): Promise<Keypair> {
  const keypair = newKeypair();
  if (sol > 0) {
    const signature = await connection.requestAirdrop(keypair.publicKey, Math.round(sol * LAMPORTS_PER_SOL));
    await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  }
  return keypair;
}

/** A key pair's secret key in every form the token launch and prompt creation accept. */
export function keyEncodings(keypair: Keypair): { json: string; base64: string; base58: string } {
  const secret = Buffer.from(keypair.secretKey);
  return { json: JSON.stringify([...secret]), base64: secret.toString("base64"), base58: bs58.encode(secret) };
}

/** Every text a secret key could leak as (its accepted forms, hex, and the seed alone). */
export function keyLeakForms(keypair: Keypair): string[] {
  const secret = Buffer.from(keypair.secretKey);
  const seed = secret.subarray(0, 32);
  const { json, base64, base58 } = keyEncodings(keypair);
  return [
    json,
    json.replace(/,/g, ", "),
    JSON.stringify([...seed]).slice(0, -1), // the array's first half, as it would start in a dump
    base64,
    base64.replace(/=+$/, ""),
    secret.toString("base64url"),
    base58,
    secret.toString("hex"),
    seed.toString("hex"),
    seed.toString("base64").replace(/=+$/, ""),
    bs58.encode(seed),
  ];
}
