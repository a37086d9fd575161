import { accountPrefix } from "./shards";
import type { RedisClient } from "./redis";

/**
 * How long the run of an attempt whose client did not get its answer waits for that client's
 * retry. The official SDKs retry within seconds (a back-off of at most 8 s, or the `Retry-After`
 * asked for, a minute at most for our own answers); a few minutes cover those with room to spare,
 * and are short enough that an unrelated request later cannot pass for a retry.
 */
const UNANSWERED_ATTEMPT_TTL_MS = 5 * 60_000;

/** One client's request as its retries repeat it: the API key (and its account), and a hash of what it sent. */
export interface AttemptIdentity {
  apiKeyId: string;
  /** The key's account, whose shard keeps the list (`accountPrefix`). */
  accountId: string;
  /** SHA-256 hex of the request (method, path, canonical body, client): never the request itself. */
  fingerprint: string;
}

/** The run of an attempt whose client did not get its answer, and how long that client waited. */
interface UnansweredAttempt {
  runId: string;
  /** How long the client waited before it left (its time-out, as seen here); absent when it did not leave. */
  patienceMs?: number;
}

/** An attempt as the list holds it: until when it may be taken. */
type RememberedAttempt = UnansweredAttempt & { until: number };

/** The most attempts one request keeps remembered (the newest): a client's retries need a few. */
const MAX_REMEMBERED = 16;

const attemptsKey = ({ apiKeyId, accountId, fingerprint }: AttemptIdentity) =>
  `${accountPrefix(accountId)}:unanswered:${apiKeyId}:${fingerprint}`;

/**
 * Remembers the run an attempt started (or answered from) whose client did not get its answer,
 * for `UNANSWERED_ATTEMPT_TTL_MS`. Redis rather than Postgres: an id kept for minutes is transport
 * state, it expires by itself, and losing it (a Redis restart) costs at worst the second run a
 * retry made before this existed. One entry per attempt: identical requests sent side by side
 * each leave theirs, and each retry takes one.
 */
export async function rememberUnanswered(
  redis: RedisClient,
  who: AttemptIdentity,
  attempt: UnansweredAttempt,
  now = Date.now(),
): Promise<void> {
  const key = attemptsKey(who);
  const entry: RememberedAttempt = { ...attempt, until: now + UNANSWERED_ATTEMPT_TTL_MS };
  await redis
    .multi()
    .rpush(key, JSON.stringify(entry))
    .ltrim(key, -MAX_REMEMBERED, -1)
    .pexpire(key, UNANSWERED_ATTEMPT_TTL_MS)
    .exec();
}

/**
 * Takes the oldest remembered attempt of the request still within its window, atomically (two
 * retries never take the same one); null when there is none.
 */
export async function takeUnanswered(
  redis: RedisClient,
  who: AttemptIdentity,
  now = Date.now(),
): Promise<UnansweredAttempt | null> {
  // Every attempt keeps its own time: a request sent again and again keeps the list alive, but an
  // attempt older than the window is dropped, never answered from.
  for (;;) {
    const entry = await redis.lpop(attemptsKey(who));
    if (entry === null) return null;
    const { until, ...attempt } = JSON.parse(entry) as RememberedAttempt;
    if (until > now) return attempt;
  }
}
