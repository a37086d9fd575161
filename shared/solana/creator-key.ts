import { inspect } from "node:util";
import { Keypair, PublicKey } from "@solana/web3.js";
import bs58 from "bs58";

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const SECRET_BYTES = 64;

/** Whether a string is a Solana public key: base58 of exactly 32 bytes. */
export function isPublicKey(value: string): boolean {
  if (!BASE58.test(value)) return false;
  try {
    return bs58.decode(value).length === 32;
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

/** The 64-byte candidates a key text may stand for: a JSON array, base58, base64. */
function secretCandidates(input: unknown): Uint8Array[] {
  let value = input;
  if (typeof value === "string" && value.trim().startsWith("[")) {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (Array.isArray(value)) {
    // Check before Uint8Array.from, which silently wraps 256 to 0.
    const bytes = value.length === SECRET_BYTES && value.every((n) => Number.isInteger(n) && n >= 0 && n <= 255);
    return bytes ? [Uint8Array.from(value as number[])] : [];
  }
  if (typeof value !== "string") return [];
  const text = value.trim();
  const candidates: Uint8Array[] = [];
  // Node's base64 decoder skips characters outside its alphabet, so each alphabet is checked first.
  if (BASE58.test(text)) candidates.push(bs58.decode(text));
  if (BASE64.test(text)) candidates.push(Buffer.from(text, "base64"));
  return candidates.filter((c) => c.length === SECRET_BYTES);
}

/**
 * Reads a secret key given as a JSON array of 64 integers 0–255, or base58 or base64 of 64 bytes,
 * whose public half must match its private half. Null for anything else; the reason is never
 * tied to the key's text.
 */
export function parseSecretKey(input: unknown): CreatorKey | null {
  for (const secret of secretCandidates(input)) {
    try {
      return new CreatorKey(Keypair.fromSecretKey(secret)); // throws when the halves do not match
    } catch {
      /* try the next reading */
    }
  }
  return null;
}

/** Whether a key belongs to a wallet (its public key). */
export function keyMatchesWallet(key: CreatorKey, wallet: string): boolean {
  return isPublicKey(wallet) && new PublicKey(wallet).toBase58() === key.publicKey;
}
