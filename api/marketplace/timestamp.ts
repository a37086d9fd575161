/**
 * A UTC instant as ISO 8601 without a zone designator (`2025-01-31T12:00:00.000`), for the fields
 * the hosted platform API sends that way (clients parse them as such). It is `toISOString()`, as every other `/v1` timestamp, minus
 * the trailing `Z`; the clock is always UTC.
 */
export function isoWithoutZone(at: Date = new Date()): string {
  return at.toISOString().slice(0, -1);
}
