import bs58 from "bs58";
import { Keypair, PublicKey } from "@solana/web3.js";

/**
 * Solana keys given by users (a token launch's `private_key`, a new prompt's `private_key` + `creator_wallet`). A
 * private key is the 64-byte ed25519 secret key (32-byte seed, then the public key) as a JSON
 * array of 64 integers, base64 or base58. Errors say what is wrong and never contain the key.
 */

const SECRET_KEY_BYTES = 64;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

const PRIVATE_KEY_FORMATS = "a JSON array of 64 integers (0–255), or the base64 or base58 encoding of a 64-byte key";

/** A key that cannot be used; the message is safe to show (it never quotes the key). */
export class InvalidKeyError extends Error {
  constructor(
    message: string,
    readonly reason: "empty" | "format" | "length" | "range" | "mismatch" | "wallet",
  ) {
    super(message);
    this.name = "InvalidKeyError";
  }
}

/** The JSON-array form: exactly 64 integers 0–255 (checked before `Uint8Array` could wrap 256 to 0). */
function fromJsonArray(value: unknown): Uint8Array {
  let list = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      throw new InvalidKeyError(
        `private_key looks like a JSON array but is not valid JSON; expected ${PRIVATE_KEY_FORMATS}`,
        "format",
      );
    }
  }
  if (!Array.isArray(list)) throw new InvalidKeyError(`private_key must be ${PRIVATE_KEY_FORMATS}`, "format");
  if (list.length !== SECRET_KEY_BYTES)
    throw new InvalidKeyError(`private_key as a JSON array must have 64 numbers, not ${list.length}`, "length");
  if (!list.every((n) => typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 255)) {
    throw new InvalidKeyError("private_key as a JSON array must hold only integers from 0 to 255", "range");
  }
  return Uint8Array.from(list as number[]);
}

/**
 * The longest texts that can encode a key: base58 of 64 bytes is at most 88 characters (of 32, 44),
 * base64 88, a JSON array of 64 bytes with spaces a few hundred. Longer input is refused before any
 * decoding: base58 decoding takes time quadratic in the length, so a megabyte would stall the process.
 */
const MAX_SECRET_TEXT = 1_024;
const MAX_PUBLIC_TEXT = 64;

/** The byte strings a text key may stand for (base58 and base64 alphabets overlap, so both are tried). */
function textCandidates(text: string): Uint8Array[] {
  const candidates: Uint8Array[] = [];
  if (BASE58.test(text)) candidates.push(bs58.decode(text));
  // Node's decoder skips characters outside the alphabet, so the alphabet is checked first.
  if (BASE64.test(text)) candidates.push(new Uint8Array(Buffer.from(text, "base64")));
  if (!candidates.length) throw new InvalidKeyError(`private_key must be ${PRIVATE_KEY_FORMATS}`, "format");
  return candidates;
}

/** Whether the second half of a 64-byte secret key is the public key of its first half (the seed). */
function halvesMatch(secret: Uint8Array): boolean {
  const derived = Keypair.fromSeed(secret.subarray(0, 32)).publicKey.toBytes();
  return Buffer.compare(Buffer.from(derived), Buffer.from(secret.subarray(32))) === 0;
}

/**
 * Parses a private key in any accepted form and returns its keypair, after checking that its
 * public half belongs to its private half. Throws InvalidKeyError.
 */
export function parsePrivateKey(input: unknown): Keypair {
  if (input === undefined || input === null || (typeof input === "string" && input.trim() === "")) {
    throw new InvalidKeyError("private_key is required", "empty");
  }
  const text = typeof input === "string" ? input.trim() : null;
  if (text !== null && text.length > MAX_SECRET_TEXT)
    throw new InvalidKeyError("private_key is far longer than any accepted key format", "length");
  const candidates = text === null || text.startsWith("[") ? [fromJsonArray(text ?? input)] : textCandidates(text);
  const sized = candidates.filter((bytes) => bytes.length === SECRET_KEY_BYTES);
  if (!sized.length) throw new InvalidKeyError("private_key must decode to exactly 64 bytes", "length");
  const valid = sized.find(halvesMatch);
  if (!valid)
    throw new InvalidKeyError(
      "private_key is not a valid key pair: its public half does not match its private half",
      "mismatch",
    );
  return Keypair.fromSecretKey(valid);
}

/** Parses a base58 public key (a wallet address). Throws InvalidKeyError. */
export function parsePublicKey(input: unknown, field = "creator_wallet"): PublicKey {
  if (typeof input !== "string" || !input.trim()) throw new InvalidKeyError(`${field} is required`, "empty");
  const text = input.trim();
  if (text.length > MAX_PUBLIC_TEXT || !BASE58.test(text) || bs58.decode(text).length !== 32) {
    throw new InvalidKeyError(`${field} must be a base58 Solana public key (32 bytes)`, "format");
  }
  return new PublicKey(text);
}

/** Throws unless the key pair is the wallet's (the wallet must be the public half of the key). */
export function assertKeyOwnsWallet(keypair: Keypair, wallet: PublicKey, field = "creator_wallet"): void {
  if (!keypair.publicKey.equals(wallet)) {
    throw new InvalidKeyError(`private_key does not belong to ${field}`, "wallet");
  }
}
