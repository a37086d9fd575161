/** Daily limits count per UTC day: the platform's creation counters and the accounts' spend. */

/** The UTC day of `now`, `YYYY-MM-DD`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** When the next UTC day starts: the next midnight UTC. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}
