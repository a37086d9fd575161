import { config } from "../../shared/config";
import type { Run } from "../../shared/db/entities/run.entity";
import { findRun, isTerminal } from "../../shared/db/runs/run-rows";
import { countRunSteps } from "../../shared/db/runs/run-progress";
import { accountPrefix } from "../../shared/queues/shards";
import { readRunEventsAfter, type RunEvent, type RunEventEntry } from "../../shared/queues/run-events";
import type { ApiDeps } from "../deps";
import type { Frame, FrameStream } from "../reply";
import { comesAfter, eventId, type EventPlace } from "./event-ids";

/** How one kind of run is shown as Server-Sent Events. */
export interface StreamFormat {
  /** The first frame's data (a bare `data:` frame), sent before the run starts. */
  metadata: Record<string, unknown>;
  /** The frames for one worker event. */
  framesFor(event: RunEvent): Frame[];
  /**
   * The worker's final events of a succeeded run, told from its row when they were lost; `told`:
   * some of its live events reached the reader already, so pieces of the answer are not told again.
   */
  endingOf(run: Run, told?: boolean): RunEvent[];
  /**
   * The frame that ends a stream before the run's own ending: the run outlasted it
   * (`run_in_progress`) or its events were lost (`events_lost`). Default: an `error` frame with the job id.
   */
  cutShort?(error: string, code: "run_in_progress" | "events_lost"): Frame;
}

/** A run and its account, whose shard holds the run's event stream. */
export interface RunOf {
  runId: string;
  accountId: string;
}

/** The current time, as every frame's `timestamp` gives it. */
export const now = () => new Date().toISOString();

/** The `error` frame both kinds of run end with when they fail. */
export function errorFrame(error: string): Frame {
  return { event: "error", data: { error, timestamp: now() } };
}

/** The worker's last event of a run: the stream is over once it is relayed. */
const isLast = (event: RunEvent) => event.type === "finish" || event.type === "error";

/** The events that end a run, told from its row (e.g. after a Redis restart lost the worker's): its stored record. */
export function endingFromRow(run: Run, format: StreamFormat, told = false): RunEvent[] {
  if (run.status === "succeeded") return format.endingOf(run, told);
  const message = (run.error as { message?: string } | null)?.message ?? `The run ended as ${run.status}`;
  return [{ type: "error", error: message }];
}

/** The frame ending a stream early, pointing to where the run can be read in full. */
export function cutShortFrame(
  format: StreamFormat,
  runId: string,
  error: string,
  code: "run_in_progress" | "events_lost",
) {
  return format.cutShort?.(error, code) ?? { event: "error", data: { error, job_id: runId, timestamp: now() } };
}

/**
 * Whether `entry` is not the one after `expected` (the number the next entry should carry): the
 * stream was trimmed, or expired, before this reader took what lay between. Entries without a
 * number (written before numbering) are not checked.
 */
const gapBefore = (entry: RunEventEntry, expected: number | undefined) =>
  entry.n !== undefined && expected !== undefined && entry.n !== expected;

/** How long a stream waits for events before it looks at the run's row (a run that ended without its last events). */
const ROW_CHECK_MS = 1_000;

/** Where a stream starts and how long it follows its run. */
export interface FollowOptions {
  /** The frame a resuming client saw last (`Last-Event-ID`): only the frames after it are sent. */
  after?: EventPlace | null;
  /** How long the stream follows a run that does not end before it cuts it short; `SYNC_WAIT_MS` by default. */
  followMs?: number;
}

/** A frame with its `id:`, or nothing when the resuming client already has it. */
export function placed(runId: string, frame: Frame, place: EventPlace, after: EventPlace | null): Frame[] {
  return comesAfter(place, after) ? [{ ...frame, id: eventId(runId, place) }] : [];
}

/**
 * A run's frames: the metadata frame, then the worker's events as they arrive from the run's Redis
 * stream (through the process's shared `RunEventFollower`), until its last event. When the run
 * ends without its final events, the row tells the ending; when it outlasts `followMs`, an
 * error frame says where to fetch it later. Events the stream lost before they were read (see
 * `gapBefore`) end it with an error frame too, never with a run that looks complete. Every frame
 * carries the id of its place in the run's record (`event-ids.ts`); with `after`, the frames up to
 * that place are read but not sent, so a client that resumes gets exactly the ones it missed.
 */
export function runFrames(deps: ApiDeps, of: RunOf, format: StreamFormat, options: FollowOptions = {}): FrameStream {
  const { runId, accountId } = of;
  const after = options.after ?? null;
  return async function* (stop) {
    yield* placed(runId, { data: format.metadata }, { record: "meta" }, after);
    const feed = deps.runEvents.follow(accountId, runId);
    const deadline = Date.now() + (options.followMs ?? config.http.syncWaitMs);
    let lastId = "0";
    let expected: number | undefined = 0;
    // Entries written before numbering are placed by their order.
    let counted = 0;
    // The place of the last frame told (sent or skipped), which a frame ending the stream early repeats.
    let last: EventPlace = { record: "meta" };
    const tell = function* (event: RunEvent, record: "live" | "stored", n: number) {
      const frames = format.framesFor(event);
      for (let k = 0; k < frames.length; k++) {
        last = { record, n, k };
        yield* placed(runId, frames[k], last, after);
      }
    };
    // Whether live events of the run were relayed: an ending told from the row then leaves out the answer's pieces.
    let told = false;
    const relay = (entry: RunEventEntry) => {
      told ||= entry.event.type !== "start";
      lastId = entry.id;
      expected = entry.n === undefined ? undefined : entry.n + 1;
      return tell(entry.event, "live", entry.n ?? counted++);
    };
    const cutShort = (error: string, code: "run_in_progress" | "events_lost"): Frame => ({
      ...cutShortFrame(format, runId, error, code),
      id: eventId(runId, last),
    });
    const lost = () =>
      cutShort(`Events of this stream were lost; read the run with GET /v1/jobs/${runId}`, "events_lost");
    try {
      while (!stop.aborted) {
        const batch = await feed.next(ROW_CHECK_MS, stop);
        for (const entry of batch) {
          if (gapBefore(entry, expected)) return yield lost();
          yield* relay(entry);
          if (isLast(entry.event)) return;
        }
        if (batch.length > 0) continue;
        if (stop.aborted) return;
        const run = await findRun(deps.ds, runId);
        if (run && isTerminal(run.status)) {
          // The final events may have landed just after the last read: read what is left directly.
          for (let rest = await readRest(deps, of, lastId); rest.length > 0;) {
            for (const entry of rest) {
              if (gapBefore(entry, expected)) return yield lost();
              yield* relay(entry);
              if (isLast(entry.event)) return;
            }
            rest = await readRest(deps, of, lastId);
          }
          // The stored record is the run's steps, then its ending (`stored-run-stream.ts`).
          const steps = await countRunSteps(deps.ds, runId);
          const ending = endingFromRow(run, format, told);
          for (let n = 0; n < ending.length; n++) yield* tell(ending[n], "stored", steps + n);
          return;
        }
        if (Date.now() > deadline) {
          const error = `The run is still in progress; fetch it later with GET /v1/jobs/${runId}`;
          yield cutShort(error, "run_in_progress");
          return;
        }
      }
    } finally {
      feed.close();
    }
  };
}

/** A run's events after `lastId`, read at once on the process's ordinary connection. */
const readRest = (deps: ApiDeps, { runId, accountId }: RunOf, lastId: string) =>
  readRunEventsAfter(deps.redis, runId, lastId, 500, accountPrefix(accountId));
