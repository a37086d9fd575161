import type { ResponseInputItem } from "../../../shared/contracts/response-run";
import type { ResponseRun, Run } from "../../../shared/db/entities/run.entity";
import { eraseResponse } from "../../../shared/db/runs/response-rows";
import { findRunForUser, isTerminal } from "../../../shared/db/runs/run-rows";
import { AppError, BadRequestError, NotFoundError } from "../../../shared/errors";
import { lastRunEventNumber, runEventsKey } from "../../../shared/queues/run-events";
import { accountPrefix } from "../../../shared/queues/shards";
import { presentResponse, responseIdOf, runIdOfResponse } from "../../../shared/runs/presenters/response.presenter";
import type { ApiDeps } from "../../deps";
import type { FrameStream, Outcome } from "../../reply";
import { endingFromRow, runFrames } from "../../spine/run-stream";
import { cancelJob } from "../jobs";
import { responseStreamFormat, streamAfter } from "./response-stream";

/** How long a resumed stream follows its response: past a run's own deadline, so it ends with the run. */
const FOLLOW_MS = 60 * 60_000;

const notFound = (id: string) => new NotFoundError(`Response with id '${id}' not found.`);

/** A stored response's run: its owner's, stored (`store` not false) and not deleted. */
function isReadable(run: Run | null): run is ResponseRun {
  return run?.kind === "response" && run.request.response.store && !run.request.response.deleted;
}

/**
 * The run of a response the user may read, continue, cancel or delete; 404 in OpenAI's words for
 * any other id (another account's, one stored with `store: false`, one deleted, one never made).
 */
export async function findResponse(deps: Pick<ApiDeps, "ds">, responseId: string, userId: string) {
  const runId = runIdOfResponse(responseId);
  const run = runId ? await findRunForUser(deps.ds, runId, userId) : null;
  if (!isReadable(run)) throw notFound(responseId);
  return run;
}

/** A stream of a response's events, for a client that reads it again (`stream=true`, `starting_after`). */
async function replayResponse(deps: ApiDeps, run: ResponseRun, userId: string, startingAfter?: number) {
  if (!run.request.stream)
    throw new BadRequestError(
      "This response was not created with stream: true, so no events were recorded; read it without stream.",
      { param: "stream" },
      "INVALID_REQUEST",
    );
  const format = responseStreamFormat(run.id, run.queued_at, run.request);
  const record = await lastRunEventNumber(deps.redis, run.id, accountPrefix(userId));
  let stream: FrameStream;
  if (record === null && isTerminal(run.status)) {
    // The record expired (an hour after its last event): told afresh from the row, numbered from 0 again.
    if (startingAfter !== undefined)
      throw new AppError(
        410,
        "EVENTS_EXPIRED",
        "The events of this response have expired; read it without starting_after, or without stream.",
        { param: "starting_after" },
      );
    stream = async function* () {
      yield { data: format.metadata };
      for (const event of endingFromRow(run, format)) yield* format.framesFor(event);
    };
  } else {
    stream = runFrames(deps, { runId: run.id, accountId: userId }, format, { followMs: FOLLOW_MS });
  }
  return startingAfter === undefined ? stream : streamAfter(stream, startingAfter);
}

/** What `GET /v1/responses/{id}` takes in its query. */
export interface ResponseReadQuery {
  stream?: boolean;
  starting_after?: number;
}

/**
 * `GET /v1/responses/{id}`: the response as it stands (queued, in progress, or its answer), or,
 * with `stream=true`, its events from the start or after `starting_after`, then live until it ends.
 */
export async function readResponse(
  deps: ApiDeps,
  id: string,
  userId: string,
  query: ResponseReadQuery,
): Promise<Outcome> {
  const run = await findResponse(deps, id, userId);
  if (query.stream) return { stream: await replayResponse(deps, run, userId, query.starting_after) };
  return { status: 200, body: presentResponse(run) };
}

/**
 * `DELETE /v1/responses/{id}`: erases an ended response (see `eraseResponse`) and the event record
 * its stream left; 409 while it is still queued or in progress (cancel it first).
 */
export async function deleteResponse(deps: Pick<ApiDeps, "ds" | "redis">, id: string, userId: string) {
  const runId = runIdOfResponse(id);
  const result = runId ? await eraseResponse(deps.ds, runId, userId) : null;
  if (!result) throw notFound(id);
  if (result === "not_ended")
    throw new AppError(409, "RESPONSE_IN_PROGRESS", "The response has not ended; cancel it before deleting it.");
  await deps.redis.del(runEventsKey(runId!, accountPrefix(userId))).catch(() => undefined);
  return { id, object: "response", deleted: true };
}

/**
 * `POST /v1/responses/{id}/cancel`: cancels a background response as `DELETE /v1/jobs/{job_id}`
 * cancels a run; one that has ended already is answered as it is (cancelling is idempotent, as
 * OpenAI's is). A response not made in the background is refused (400), as OpenAI refuses it.
 */
export async function cancelResponse(deps: ApiDeps, id: string, userId: string) {
  const run = await findResponse(deps, id, userId);
  if (!run.request.response.background)
    throw new BadRequestError("Only responses created with background: true can be cancelled.", {}, "INVALID_REQUEST");
  await cancelJob(deps, run.id, userId).catch((err: unknown) => {
    if (!(err instanceof AppError && err.code === "JOB_FINISHED")) throw err;
  });
  return presentResponse(await findResponse(deps, id, userId));
}

/** What `GET /v1/responses/{id}/input_items` takes in its query. */
export interface InputItemsQuery {
  after?: string;
  limit: number;
  order: "asc" | "desc";
}

/** An input item as OpenAI lists it: a message's content as parts, every item `completed`. */
function listedItem(item: ResponseInputItem) {
  if (item.type !== "message") return { ...item, status: "completed" };
  const partType = item.role === "assistant" ? "output_text" : "input_text";
  const content = typeof item.content === "string" ? [{ type: partType, text: item.content }] : item.content;
  return { ...item, content, status: "completed" };
}

/**
 * `GET /v1/responses/{id}/input_items`: the items the response was given, in `order` (`desc`, the
 * last first, by default), `limit` of them after the item `after` names; 400 for an `after` that
 * names none of them.
 */
export async function listInputItems(deps: Pick<ApiDeps, "ds">, id: string, userId: string, query: InputItemsQuery) {
  const run = await findResponse(deps, id, userId);
  const items = run.request.response.input.map(listedItem);
  const ordered = query.order === "asc" ? items : [...items].reverse();
  let from = 0;
  if (query.after !== undefined) {
    const at = ordered.findIndex((item) => item.id === query.after);
    if (at < 0)
      throw new BadRequestError(
        `No input item '${query.after}' in ${responseIdOf(run.id)}.`,
        { param: "after" },
        "INVALID_REQUEST",
      );
    from = at + 1;
  }
  const data = ordered.slice(from, from + query.limit);
  return {
    object: "list",
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: from + query.limit < ordered.length,
  };
}
