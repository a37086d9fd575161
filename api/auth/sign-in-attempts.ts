import { createHash } from "node:crypto";
import { config } from "../../shared/config";
import type { AccountSettings } from "../../shared/config/accounts";
import type { RedisClient } from "../../shared/queues/redis";

/** The window sign-in attempts are counted in. */
const WINDOW_SECONDS = 15 * 60;

/**
 * How many times the per-email limit all addresses together may try one email's password: a
 * guesser spread over many addresses is bounded too, while one who tries from a few cannot lock the
 * owner out of their own address's allowance.
 */
const ALL_ADDRESSES_FACTOR = 10;

/** What is counted: tries at one email's password from one address and from all, and everything one address tries. */
type Subject = { email: string; address?: string } | { address: string };

/** The Redis counter of a subject; the email and address are hashed, so Redis holds neither in clear. */
function counterKey(subject: Subject): string {
  const [kind, value] =
    "email" in subject
      ? subject.address === undefined
        ? ["email", subject.email.toLowerCase()]
        : ["email-address", `${subject.email.toLowerCase()} ${subject.address}`]
      : ["address", subject.address];
  const id = createHash("sha256").update(`${kind}:${value}`).digest("base64url");
  return `${config.queue.prefix}:sign-in-attempts:${kind}:${id}`;
}

/** Counts one attempt in a fixed window; returns the count and the seconds left in its window. */
async function count(redis: RedisClient, key: string): Promise<{ count: number; retryAfter: number }> {
  const reply = await redis.multi().incr(key).expire(key, WINDOW_SECONDS, "NX").ttl(key).exec();
  const attempts = Number(reply?.[0]?.[1] ?? 0);
  const ttl = Number(reply?.[2]?.[1] ?? WINDOW_SECONDS);
  return { count: attempts, retryAfter: ttl > 0 ? ttl : WINDOW_SECONDS };
}

/**
 * Counts a password sign-in (or, without an email, a sign-up) against the client address, the
 * email from that address and the email from all addresses, in Redis so every web process shares
 * the counts. Returns the seconds to wait when one is over its limit per 15 minutes
 * (`SIGN_IN_ATTEMPTS_PER_ADDRESS`; `SIGN_IN_ATTEMPTS_PER_EMAIL` from one address, ten times it from
 * all), else null. Every attempt counts, right or wrong, and a refused one is not checked at all.
 * Someone trying an email from elsewhere uses up that address's allowance, not its owner's.
 */
export async function attemptRefusal(
  redis: RedisClient,
  limits: Pick<AccountSettings, "attemptsPerEmail" | "attemptsPerAddress">,
  attempt: { address: string; email?: string },
): Promise<number | null> {
  const byAddress = await count(redis, counterKey({ address: attempt.address }));
  if (byAddress.count > limits.attemptsPerAddress) return byAddress.retryAfter;
  if (attempt.email === undefined) return null;
  const fromHere = await count(redis, counterKey({ email: attempt.email, address: attempt.address }));
  if (fromHere.count > limits.attemptsPerEmail) return fromHere.retryAfter;
  const fromAll = await count(redis, counterKey({ email: attempt.email }));
  return fromAll.count > limits.attemptsPerEmail * ALL_ADDRESSES_FACTOR ? fromAll.retryAfter : null;
}
