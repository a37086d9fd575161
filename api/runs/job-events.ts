import { chatStreamFormat } from "./chat-stream";
import type { Run } from "../../shared/db/entities/run.entity";
import { findRunForUser, isTerminal } from "../../shared/db/runs/run-rows";
import { isUuid } from "../../shared/db/uuid";
import { AppError, NotFoundError } from "../../shared/errors";
import { lastRunEventNumber } from "../../shared/queues/run-events";
import { accountPrefix } from "../../shared/queues/shards";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { parseEventId, type EventPlace } from "../spine/event-ids";
import { endingFromRow, runFrames, type StreamFormat } from "../spine/run-stream";
import { storedRunFrames } from "../spine/stored-run-stream";
import { countRunSteps } from "../../shared/db/runs/run-progress";
import { agentStreamFormat } from "./agent-stream";
import { swarmStreamFormat } from "./swarm-stream";

/**
 * How long a joined stream follows a run: past a run's own deadline (`RUN_DEADLINE_MS` is at most
 * 15 minutes), so it ends with the run, not before.
 */
const FOLLOW_MS = 60 * 60_000;

/** The frames a run's kind streams in, as its streaming endpoint sends them; null for a kind that has none. */
function formatOf(run: Run): StreamFormat | null {
  switch (run.kind) {
    case "agent":
      return agentStreamFormat(run.id, run.request);
    case "swarm":
      return swarmStreamFormat(run.id, run.request);
    case "chat_completion":
      // Read back, a chat run's frames carry its usage chunk: what the stream's own client asked is not stored.
      return chatStreamFormat(run.id, run.request, true);
    case "reasoning_agent":
      return swarmStreamFormat(run.id, {
        name: run.request.agent_name ?? null,
        swarm_type: run.request.swarm_type,
        agents: null,
      });
    default:
      return null;
  }
}

const badLastEventId = (id: string) =>
  new AppError(400, "INVALID_LAST_EVENT_ID", `Last-Event-ID '${id}' is not the id of a frame of this job's stream`);

/** Whether a run's worker writes its events to Redis: only a run started as a stream does. */
const streamedThroughRedis = (run: Run) => (run.request as { stream?: unknown } | null)?.stream === true;

const expired = (run: Run) =>
  new AppError(
    410,
    "EVENTS_EXPIRED",
    "The events this id belongs to have expired; stream the job from its start (without Last-Event-ID) or read it with GET /v1/jobs/{job_id}",
    { job_id: run.id },
  );

/**
 * Where a resuming client's stream starts, checked against the run's records: an id this run's
 * stream never sent is refused (400), and one from a Redis record that has expired since is
 * refused too (410): replaying from elsewhere would send frames the client may already have.
 * `redisRecord` is the number of the last event of the run's Redis record (null: there is none).
 */
async function resumePoint(
  deps: ApiDeps,
  run: Run,
  format: StreamFormat,
  redisRecord: number | null,
  lastEventId: string,
): Promise<EventPlace> {
  const place = parseEventId(run.id, lastEventId);
  if (!place) throw badLastEventId(lastEventId);
  if (place.record === "meta") return place;
  if (place.record === "stored") {
    // The stored record: the steps told so far, then (once the run ended) its ending.
    const told =
      (await countRunSteps(deps.ds, run.id)) + (isTerminal(run.status) ? endingFromRow(run, format).length : 0);
    if (place.n >= told) throw badLastEventId(lastEventId);
    return place;
  }
  if (!streamedThroughRedis(run)) throw badLastEventId(lastEventId);
  if (redisRecord === null) throw expired(run);
  if (redisRecord >= 0 && place.n > redisRecord) throw badLastEventId(lastEventId);
  return place;
}

/**
 * `GET /v1/jobs/{job_id}/events`: a run of the caller's account streamed as its streaming endpoint
 * frames it, from its start or after `lastEventId` (docs/streams.md). A run started as a stream is
 * replayed from its Redis record and followed live; any other run, and one whose Redis record has
 * expired, is told from Postgres (its steps, then its ending), so a run nobody streams writes
 * nothing for this endpoint. 404 for a run of another account, as `GET /v1/jobs` does.
 */
export async function jobEvents(
  deps: ApiDeps,
  jobId: string,
  userId: string,
  lastEventId: string | undefined,
): Promise<Outcome> {
  const run = isUuid(jobId) ? await findRunForUser(deps.ds, jobId, userId) : null;
  if (!run) throw new NotFoundError(`No job '${jobId}' for this API key's account`);
  const format = formatOf(run);
  if (!format) {
    throw new AppError(
      409,
      "NO_EVENT_STREAM",
      `A ${run.kind} run has no event stream; read it with GET /v1/jobs/{job_id}`,
      {
        job_id: run.id,
      },
    );
  }
  const redisRecord = streamedThroughRedis(run)
    ? await lastRunEventNumber(deps.redis, run.id, accountPrefix(userId))
    : null;
  const after = lastEventId === undefined ? null : await resumePoint(deps, run, format, redisRecord, lastEventId);
  const of = { runId: run.id, accountId: userId };
  const options = { after, followMs: FOLLOW_MS };
  // A streamed run whose record is gone (expired, or never written before it ended) is told from Postgres.
  const live = streamedThroughRedis(run) && (redisRecord !== null || !isTerminal(run.status));
  return { stream: (live ? runFrames : storedRunFrames)(deps, of, format, options) };
}
