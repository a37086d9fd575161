/**
 * Where a frame sits in a run's event record, as its SSE `id:` line names it, so that a client
 * sending it back as `Last-Event-ID` resumes exactly after it (docs/streams.md):
 * - `<job_id>:meta`, the metadata frame every stream opens with;
 * - `<job_id>:<n>.<k>`, the `k`th frame told from the run's `n`th event in its Redis record;
 * - `<job_id>:s<n>.<k>`, the `k`th frame told from the `n`th event of its stored record (the
 *   ending told from the run's row in Postgres, once the Redis record is gone or lacks it).
 * The job id is part of it so an id says which run it belongs to.
 */
export type EventPlace = { record: "meta" } | { record: "live" | "stored"; n: number; k: number };

/** The `id:` of the frame at `place` in run `runId`'s stream. */
export function eventId(runId: string, place: EventPlace): string {
  if (place.record === "meta") return `${runId}:meta`;
  return `${runId}:${place.record === "stored" ? "s" : ""}${place.n}.${place.k}`;
}

const PLACE = /^(s?)(\d{1,9})\.(\d{1,4})$/;

/**
 * The place an id names, or null when it is malformed (not an id this service wrote) or names
 * another run than `runId`.
 */
export function parseEventId(runId: string, id: string): EventPlace | null {
  const cut = id.lastIndexOf(":");
  if (cut < 0 || id.slice(0, cut) !== runId) return null;
  const rest = id.slice(cut + 1);
  if (rest === "meta") return { record: "meta" };
  const match = PLACE.exec(rest);
  if (!match) return null;
  return { record: match[1] ? "stored" : "live", n: Number(match[2]), k: Number(match[3]) };
}

/** Whether the frame at `place` comes after the one at `resumeAfter` in the same record. */
export function comesAfter(place: EventPlace, resumeAfter: EventPlace | null): boolean {
  if (!resumeAfter) return true;
  if (place.record === "meta") return false;
  if (resumeAfter.record === "meta") return true;
  // A stream tells its stored ending only after its live frames, never the other way round.
  if (place.record !== resumeAfter.record) return place.record === "stored";
  if (place.n !== resumeAfter.n) return place.n > resumeAfter.n;
  return place.k > resumeAfter.k;
}
