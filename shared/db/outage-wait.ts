import pRetry from "p-retry";
import { isDatabaseUnavailable } from "../unavailable";

/**
 * How long a worker keeps trying a write while Postgres is unreachable before giving the job up
 * to BullMQ's retry: long enough to ride out a restart or a failover.
 */
const DATABASE_OUTAGE_WAIT_MS = 120_000;

/**
 * Runs a worker's database call, trying it again (100 ms, doubling to 2 s) for as long as
 * Postgres is unreachable, up to `maxWaitMs`; other errors are thrown at once. A run in flight
 * during a Postgres restart thus stores its steps and result once the server is back, instead of
 * failing and redoing its LLM calls. Not for the API's request path, which answers 503 at once.
 */
export async function whenDatabaseAnswers<T>(
  work: () => Promise<T>,
  options: { signal?: AbortSignal; maxWaitMs?: number } = {},
): Promise<T> {
  // The first try goes straight to the work: almost every call succeeds at once, and setting up
  // the retry loop for each of a run's writes was a visible share of a worker's CPU (docs/performance.md).
  // Awaited inside this async function, a `work` that throws before returning its promise rejects too.
  try {
    return await work();
  } catch (err) {
    if (!isDatabaseUnavailable(err) || options.signal?.aborted) throw err;
    return retryWhileUnavailable(work, err, options);
  }
}

function retryWhileUnavailable<T>(
  work: () => Promise<T>,
  firstError: unknown,
  options: { signal?: AbortSignal; maxWaitMs?: number },
) {
  // p-retry's first attempt stands for the one that just failed, so the next real try comes after
  // the first pause instead of hammering a server that refused us a moment ago.
  return pRetry((attempt) => (attempt === 1 ? Promise.reject(firstError) : work()), {
    retries: Number.POSITIVE_INFINITY,
    minTimeout: 100,
    maxTimeout: 2_000,
    factor: 2,
    maxRetryTime: options.maxWaitMs ?? DATABASE_OUTAGE_WAIT_MS,
    signal: options.signal,
    shouldRetry: ({ error }) => isDatabaseUnavailable(error),
  });
}
