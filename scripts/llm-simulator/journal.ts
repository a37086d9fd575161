import type { JournalEntry } from "./types";

/** Entries kept; older ones are dropped so a long benchmark cannot exhaust memory. */
const JOURNAL_LIMIT = 10_000;

/** Appends to the journal in place (callers hold the same array) and drops the oldest beyond the cap. */
export function recordRequest(journal: JournalEntry[], entry: JournalEntry): void {
  journal.push(entry);
  // shift(), not splice(0, n): V8 left-trims the array in O(1), splice copies all 10,000 slots.
  while (journal.length > JOURNAL_LIMIT) journal.shift();
}
