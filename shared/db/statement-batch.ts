import DataLoader from "dataloader";

/** How many rows one batched statement carries at most. */
const MAX_ROWS = 200;

/**
 * Group commit for a hot-path write (docs/performance.md): the calls made while the event loop
 * handles one round of I/O (the answers of many runs' LLM calls, arriving together) leave as one
 * statement carrying every row, instead of one statement, one socket write and one commit each.
 * At one call in flight nothing waits: the batch of one leaves once the current I/O is handled.
 *
 * `many` writes all items in one statement and returns one result per item, in order. When it
 * fails, each item is written again on its own with `one`, so an item's error (a constraint, a
 * value Postgres refuses) is its own and never fails the writes that happened to share its batch.
 */
export function statementBatch<I, O>(
  many: (items: readonly I[]) => Promise<O[]>,
  one: (item: I) => Promise<O>,
): (item: I) => Promise<O> {
  const loader = new DataLoader<I, O>(
    async (items) => {
      if (items.length === 1) return [await one(items[0]).catch((err: Error) => err)];
      try {
        return await many(items);
      } catch {
        return Promise.all(items.map((item) => one(item).catch((err: Error) => err)));
      }
    },
    { cache: false, maxBatchSize: MAX_ROWS, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
  return (item) => loader.load(item);
}

/** Column arrays from rows of values, for a batched statement's `unnest`, which takes one array per column. */
export function columnsOf(rows: unknown[][]): unknown[][] {
  return rows[0].map((_, i) => rows.map((row) => row[i]));
}
