import { inspect } from "node:util";
import type { Keypair } from "@solana/web3.js";
import { InvalidKeyError, parsePrivateKey, parsePublicKey } from "./private-key";

/** Whether a string is a Solana public key: base58 of exactly 32 bytes. */
export function isPublicKey(value: string): boolean {
  try {
    parsePublicKey(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A creator's secret key, checked and held without ever showing it: JSON, `String()` and
 * `util.inspect` print only the public key, so logging a request body cannot leak it.
 */
export class CreatorKey {
  readonly #keypair: Keypair;

  constructor(keypair: Keypair) {
    this.#keypair = keypair;
  }

  get publicKey(): string {
    return this.#keypair.publicKey.toBase58();
  }

  /** The keypair, for signing only. */
  keypair(): Keypair {
    return this.#keypair;
  }

  toJSON(): string {
    return `[secret key of ${this.publicKey}]`;
  }

  toString(): string {
    return this.toJSON();
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}

/**
 * Reads a secret key given as a JSON array of 64 integers 0–255, or base58 or base64 of 64 bytes,
 * whose public half must match its private half (`parsePrivateKey`). Null for anything else; the
 * reason is never tied to the key's text.
 */
export function parseSecretKey(input: unknown): CreatorKey | null {
  try {
    return new CreatorKey(parsePrivateKey(input));
  } catch (err) {
    if (err instanceof InvalidKeyError) return null;
    throw err;
  }
}

/** Whether a key belongs to a wallet (its public key). */
export function keyMatchesWallet(key: CreatorKey, wallet: string): boolean {
  return isPublicKey(wallet) && parsePublicKey(wallet).toBase58() === key.publicKey;
}
