import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** Shortest password an account may have: long enough that the rate limit makes guessing hopeless. */
export const MIN_PASSWORD_LENGTH = 10;
/** Longest password taken (in characters; bytes are bounded by it too): hashing a megabyte per try would be a cheap attack on the CPU. */
export const MAX_PASSWORD_LENGTH = 256;

/**
 * scrypt's cost today: N = 2^15, r = 8, p = 1 (32 MiB and about 0.1 s a hash), OWASP's floor for
 * scrypt. Every stored hash names its own parameters, so raising these later keeps old hashes
 * verifiable (and `needsRehash` tells the sign-in to store a stronger one).
 */
const CURRENT = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Highest cost a stored hash may ask for: a tampered row must not make sign-in allocate gigabytes. */
const MAX_N = 2 ** 20;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, params: ScryptParams, keyBytes: number): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, keyBytes, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Why a password is not acceptable as a new one, or null when it is. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

/** `scrypt$N$r$p$<salt>$<hash>` (base64url) with a fresh random salt: the only form a password is stored in. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, CURRENT, KEY_BYTES);
  return ["scrypt", CURRENT.N, CURRENT.r, CURRENT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const sane =
    scheme === "scrypt" &&
    Number.isInteger(params.N) &&
    params.N > 1 &&
    params.N <= MAX_N &&
    (params.N & (params.N - 1)) === 0 &&
    Number.isInteger(params.r) &&
    params.r >= 1 &&
    params.r <= 32 &&
    Number.isInteger(params.p) &&
    params.p >= 1 &&
    params.p <= 16 &&
    Boolean(salt) &&
    Boolean(key);
  return sane ? { params, salt: Buffer.from(salt, "base64url"), key: Buffer.from(key, "base64url") } : null;
}

/** A hash of no password: unknown emails are checked against it, so they take as long as wrong passwords. */
let decoy: Promise<string> | null = null;

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. `stored` null
 * (no such account, or one without a password) still costs a full hash, so the answer's timing
 * does not tell which emails have accounts.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  decoy ??= hashPassword(randomBytes(16).toString("hex"));
  const parsed = parse(stored ?? (await decoy));
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return stored !== null && timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash was made with weaker parameters than today's (the sign-in then stores a new one). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.params.N < CURRENT.N || parsed.params.r < CURRENT.r || parsed.params.p < CURRENT.p;
}
