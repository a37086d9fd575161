import { createHash } from "node:crypto";
import { config } from "../../shared/config";
import type { RedisClient } from "../../shared/queues/redis";

/** As long as a pre-session cookie lives: after that its form token is refused anyway. */
const REMEMBERED_SECONDS = 60 * 60;

/**
 * Whether this is the first sign-in post of a pre-session, remembering it (in Redis, so every web
 * process agrees) if so. Replacing the browser's cookie after a post is not enough to make a form
 * token good for one sign-in: a client that kept the old cookie could post the same form again.
 * The id is kept hashed: it is not needed in clear to recognise it.
 */
export async function firstSignInOf(redis: RedisClient, preSession: string): Promise<boolean> {
  const id = createHash("sha256").update(preSession).digest("base64url");
  const set = await redis.set(`${config.queue.prefix}:sign-in-used:${id}`, "1", "EX", REMEMBERED_SECONDS, "NX");
  return set === "OK";
}
