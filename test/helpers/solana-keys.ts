import bs58 from "bs58";
import type { Keypair } from "@solana/web3.js";

/** A key pair's secret key in every form E6 and E7 accept. */
export function keyEncodings(keypair: Keypair): { json: string; base64: string; base58: string } {
  const secret = Buffer.from(keypair.secretKey);
  return { json: JSON.stringify([...secret]), base64: secret.toString("base64"), base58: bs58.encode(secret) };
}

/** Every text a secret key could leak as (its accepted forms, hex, and the seed alone). */
export function keyLeakForms(keypair: Keypair): string[] {
  const secret = Buffer.from(keypair.secretKey);
  const seed = secret.subarray(0, 32);
  const { json, base64, base58 } = keyEncodings(keypair);
  return [json, json.replace(/,/g, ", "), base64, base64.replace(/=+$/, ""), base58, secret.toString("hex"), seed.toString("hex"), seed.toString("base64").replace(/=+$/, ""), bs58.encode(seed), secret.toString("base64url")];
}
