import { performance } from "node:perf_hooks";
import { ServiceUnavailableError } from "../../shared/errors";

/** The longest a check waits for Redis, in timeouts, however its deadline was extended. */
const MAX_WAIT_TIMEOUTS = 5;
/** A timer this late means the process itself fell behind during the wait. */
const LATE_TIMER_MS = 100;

/** The 503 of a limit check Redis did not answer. */
export function rateLimitingUnavailable(): ServiceUnavailableError {
  return new ServiceUnavailableError("Rate limiting is unavailable (Redis is not answering); try again shortly");
}

/**
 * The deadline of the rate limiter's Redis checks: Redis errors and slow answers both become a
 * quick 503, never a hang or a 500.
 *
 * The deadline is judged only after the input already waiting has been read: when this process
 * was busy past the deadline (a burst of requests), Redis's answer may be sitting unread in the
 * socket, and the event loop runs due timers before it reads sockets. `setImmediate` runs after
 * that read, so a Redis that answered in time is not mistaken for one that did not.
 *
 * A deadline is also extended, by another timeout at a time and never past `MAX_WAIT_TIMEOUTS`
 * of them in all, when the wait was plainly not Redis's: Redis answered another check during
 * it, or this process ran the deadline's own timer over 100 ms late. In a burst of thousands of
 * requests (more ready sockets than one pass of the event loop reads), `npm run bench --
 * concurrency` had 909 of 2,000 refused as "Redis is not answering" while Redis kept answering.
 * A Redis that answers nobody still gets its 503 after one timeout on a process that keeps up.
 */
export class RedisDeadline {
  /** When Redis last answered one of these checks (`performance.now()`). */
  private lastAnswerAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly timeoutMs: number) {}

  /** The check's answer, or the 503 once the deadline passes or Redis fails. */
  async bounded<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let immediate: NodeJS.Immediate | undefined;
    const timeoutMs = this.timeoutMs;
    const giveUpAt = performance.now() + MAX_WAIT_TIMEOUTS * timeoutMs;
    const timeout = new Promise<never>((_, reject) => {
      const arm = () => {
        const armedAt = performance.now();
        timer = setTimeout(() => {
          const late = performance.now() - (armedAt + timeoutMs) > LATE_TIMER_MS;
          immediate = setImmediate(() => {
            const notRedis = late || this.lastAnswerAt >= armedAt;
            if (notRedis && performance.now() + timeoutMs <= giveUpAt) arm();
            else reject(new Error("timed out"));
          });
        }, timeoutMs);
      };
      arm();
    });
    try {
      const answer = await Promise.race([work, timeout]);
      this.lastAnswerAt = performance.now();
      return answer;
    } catch {
      throw rateLimitingUnavailable();
    } finally {
      clearTimeout(timer);
      clearImmediate(immediate);
    }
  }
}
