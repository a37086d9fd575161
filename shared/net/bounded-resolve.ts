import type { LookupAddress } from "node:dns";

/** Every address a host name resolves to. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

/**
 * `resolve` with at most `concurrency` lookups running at once (the others wait their turn) and
 * an answer within `timeoutMs` or a rejection. The system resolver runs on libuv's threadpool (4
 * threads, shared with fs and crypto), and a lookup given up on here still holds its thread until
 * the resolver gives up: without a cap, a request full of slow names would take the pool over.
 */
export function boundedResolve(
  resolve: ResolveAll,
  { concurrency, timeoutMs }: { concurrency: number; timeoutMs: number },
): ResolveAll {
  let free = concurrency;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const slot = (): Promise<void> => {
    if (free > 0) {
      free--;
      return Promise.resolve();
    }
    return new Promise((granted) => waiting.push(granted));
  };

  return (hostname) => {
    let expired = false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true;
        reject(new Error(`resolving ${hostname} took over ${timeoutMs} ms`));
      }, timeoutMs);
    });
    const lookup = slot().then(async () => {
      if (expired) {
        release(); // nobody waits for this answer any more: the slot goes on at once
        return [];
      }
      try {
        return await resolve(hostname);
      } finally {
        release();
      }
    });
    return Promise.race([lookup, timeout]).finally(() => clearTimeout(timer));
  };
}
