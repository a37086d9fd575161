import type { JournalEntry } from "./types";

/** Entries kept; older ones are dropped so a long benchmark cannot exhaust memory. */
export const JOURNAL_LIMIT = 10_000;

/** Appends to the journal in place (callers hold the same array) and drops the oldest beyond the cap. */
export function recordRequest(journal: JournalEntry[], entry: JournalEntry): void {
  journal.push(entry);
  if (journal.length > JOURNAL_LIMIT) journal.splice(0, journal.length - JOURNAL_LIMIT);
}
