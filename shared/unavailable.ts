import { ServiceUnavailableError } from "./errors";

/**
 * Telling "a backing service is down" apart from a bug, so the API can answer 503 (try again)
 * instead of 500, and workers can wait for Postgres instead of failing a run.
 */

/** PostgreSQL SQLSTATEs of a server that is gone, going or not yet back (class 08, 57P0x, 53300). */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300";
}

/** Socket-level failures: nobody listens, the connection broke, or the host is unreachable. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** What `pg` says when a connection dies or cannot be made. */
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error/,
  /Connection is not established/,
];

/** What `ioredis` says when Redis cannot be reached (fail-fast clients and exhausted retries). */
const REDIS_MESSAGES = [
  /enableOfflineQueue options is false/,
  /^Connection is closed/,
  /Reached the max retries per request limit/,
];

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : "";
}

/** The error itself, what TypeORM wrapped (`driverError`) and an `AggregateError`'s parts (a failed dual-stack connect). */
function causes(err: unknown): unknown[] {
  const found: unknown[] = [];
  const walk = (e: unknown, depth: number) => {
    if (!e || depth > 3) return;
    found.push(e);
    walk((e as { driverError?: unknown }).driverError, depth + 1);
    walk((e as { cause?: unknown }).cause, depth + 1);
    for (const inner of (e as { errors?: unknown[] }).errors ?? []) walk(inner, depth + 1);
  };
  walk(err, 0);
  return found;
}

/** Whether `err` means Postgres could not be reached or went away mid-query. */
export function isDatabaseUnavailable(err: unknown): boolean {
  return causes(err).some((e) => {
    const code = codeOf(e);
    if (code && (NETWORK_CODES.has(code) || isUnavailableSqlState(code))) return true;
    return PG_CONNECTION_MESSAGES.some((m) => m.test(messageOf(e)));
  });
}

/** Whether `err` means Redis could not be reached. */
export function isRedisUnavailable(err: unknown): boolean {
  return causes(err).some((e) => REDIS_MESSAGES.some((m) => m.test(messageOf(e))));
}

/**
 * The 503 to answer for an error that says a backing service is down, or null for any other
 * error. Which service it was goes in the message; the raw error (hosts, ports) does not.
 */
export function asServiceUnavailable(err: unknown): ServiceUnavailableError | null {
  if (err instanceof ServiceUnavailableError) return err;
  if (isRedisUnavailable(err))
    return new ServiceUnavailableError("The job queue (Redis) is unavailable; try again shortly");
  if (isDatabaseUnavailable(err)) return new ServiceUnavailableError("The database is unavailable; try again shortly");
  return null;
}
