import { createHash } from "node:crypto";
import { config } from "../../shared/config";
import type { AccountSettings } from "../../shared/config/accounts";
import type { RedisClient } from "../../shared/queues/redis";

/** The window sign-in attempts are counted in. */
const WINDOW_SECONDS = 15 * 60;

/** What is counted: tries at one email's password, and everything one client address tries. */
type Subject = { email: string } | { address: string };

/** The Redis counter of a subject; the email and address are hashed, so Redis holds neither in clear. */
function counterKey(subject: Subject): string {
  const [kind, value] = "email" in subject ? ["email", subject.email.toLowerCase()] : ["address", subject.address];
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
 * Counts a password sign-in (or, without an email, a sign-up or password change) against the
 * client address and the email, in Redis so every web process shares the counts. Returns the
 * seconds to wait when either is over its limit (`SIGN_IN_ATTEMPTS_PER_EMAIL`,
 * `SIGN_IN_ATTEMPTS_PER_ADDRESS` per 15 minutes), else null. Every attempt counts, right or
 * wrong: counting only failures would tell a guesser which email has which password.
 */
export async function attemptRefusal(
  redis: RedisClient,
  limits: Pick<AccountSettings, "attemptsPerEmail" | "attemptsPerAddress">,
  attempt: { address: string; email?: string },
): Promise<number | null> {
  const byAddress = await count(redis, counterKey({ address: attempt.address }));
  if (byAddress.count > limits.attemptsPerAddress) return byAddress.retryAfter;
  if (attempt.email === undefined) return null;
  const byEmail = await count(redis, counterKey({ email: attempt.email }));
  return byEmail.count > limits.attemptsPerEmail ? byEmail.retryAfter : null;
}
