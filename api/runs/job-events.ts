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

/**
 * Where a resuming client's stream starts, checked against the run's records: an id this run's
 * stream never sent is refused (400), and one from a Redis record that has expired since is
 * refused too (410): replaying from elsewhere would send frames the client may already have.
 */
async function resumePoint(
  deps: ApiDeps,
  run: Run,
  accountId: string,
  format: StreamFormat,
  lastEventId: string,
): Promise<EventPlace> {
  const place = parseEventId(run.id, lastEventId);
  if (!place) throw badLastEventId(lastEventId);
  if (place.record === "meta") return place;
  if (place.record === "stored") {
    if (!isTerminal(run.status) || place.n >= endingFromRow(run, format).length) throw badLastEventId(lastEventId);
    return place;
  }
  const last = await lastRunEventNumber(deps.redis, run.id, accountPrefix(accountId));
  if (last === null) {
    throw new AppError(
      410,
      "EVENTS_EXPIRED",
      "The events this id belongs to have expired; stream the job from its start (without Last-Event-ID) or read it with GET /v1/jobs/{job_id}",
      { job_id: run.id },
    );
  }
  if (last >= 0 && place.n > last) throw badLastEventId(lastEventId);
  return place;
}

/**
 * `GET /v1/jobs/{job_id}/events`: a run of the caller's account streamed as its streaming endpoint
 * frames it, from its start or after `lastEventId`, replayed from its record and then followed
 * live until it ends (docs/streams.md). 404 for a run of another account, as `GET /v1/jobs` does.
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
  const after = lastEventId === undefined ? null : await resumePoint(deps, run, userId, format, lastEventId);
  return { stream: runFrames(deps, { runId: run.id, accountId: userId }, format, { after, followMs: FOLLOW_MS }) };
}
