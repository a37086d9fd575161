import DataLoader from "dataloader";
import { isDatabaseUnavailable } from "../unavailable";

/** How many rows one batched statement carries at most. */
const MAX_ROWS = 100;
/**
 * A row longer than this (its text, in characters: up to three times as many bytes in UTF-8) is
 * written on its own, so batches stay a few MB at most.
 */
const MAX_BATCHED_ROW_CHARS = 64 * 1024;

/**
 * Group commit for a hot-path write (docs/performance.md): the calls made while the event loop
 * handles one round of I/O (the answers of many runs' LLM calls, arriving together) leave as one
 * statement carrying every row, instead of one statement, one socket write and one commit each.
 * At one call in flight nothing waits: the batch of one leaves once the current I/O is handled.
 *
 * `many` writes all items in one statement and returns one result per item, in order; it must be
 * that one statement and nothing else, so that when it fails nothing of it was committed. When
 * it fails for a reason one row can cause (a constraint, a value Postgres refuses), each item is
 * written again on its own with `one`, so that item's error is its own and never fails the writes
 * that happened to share its batch. When Postgres is unreachable, every item gets that error (the
 * API answers 503, a worker waits for the database): the batch may even have committed before
 * its connection dropped, and writing its rows again would find them there.
 */
export function statementBatch<I, O>(
  many: (items: readonly I[]) => Promise<O[]>,
  one: (item: I) => Promise<O>,
  sizeOf: (item: I) => number = () => 0,
): (item: I) => Promise<O> {
  const loader = new DataLoader<I, O>(
    async (items) => {
      if (items.length === 1) return [await one(items[0]).catch((err: Error) => err)];
      try {
        return await many(items);
      } catch (err) {
        if (isDatabaseUnavailable(err)) return items.map(() => err as Error);
        return Promise.all(items.map((item) => one(item).catch((e: Error) => e)));
      }
    },
    { cache: false, maxBatchSize: MAX_ROWS, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
  return (item) => (sizeOf(item) > MAX_BATCHED_ROW_CHARS ? one(item) : loader.load(item));
}

/** Column arrays from rows of values, for a batched statement's `unnest`, which takes one array per column. */
export function columnsOf(rows: unknown[][]): unknown[][] {
  return rows[0].map((_, i) => rows.map((row) => row[i]));
}

/** The length of a row's text values in characters (counted without encoding them: this is on the hot path; numbers, dates and nulls are small). */
export function rowChars(row: unknown[]): number {
  let bytes = 0;
  for (const value of row) if (typeof value === "string") bytes += value.length;
  return bytes;
}
