import type { Context, Middleware, Next, ParameterizedContext } from "koa";
import type { DataSource } from "typeorm";
import { AppError, BadRequestError } from "../../shared/errors";
import {
  IDEMPOTENCY_TTL_MS,
  claimKey,
  findRecord,
  recordRun,
  releaseKey,
  replaceTimedOutAnswer,
  requestHash,
  saveResponse,
  type IdempotencyRecord,
  type StoredResponse,
} from "../../shared/db/idempotency-store";
import { retryHint } from "../reply";
import { announcedWaitMs } from "./client-wait";
import { v1ErrorBody } from "./error-bodies";
import { parsePrefer } from "./prefer-header";
import type { V1State } from "./state";

/** 1–255 printable ASCII characters (Node has already trimmed surrounding whitespace). */
const KEY_FORMAT = /^[\x20-\x7E]{1,255}$/;

/** Headers that describe the body rather than the answer; Koa sets them again on replay. */
const BODY_HEADERS = new Set(["content-type", "content-length"]);

/** Slack on a duplicate's wait, so it outlasts an original that started a moment earlier. */
const WAIT_GRACE_MS = 1_000;

export interface IdempotencyOptions {
  /** The longest synchronous wait (`SYNC_WAIT_MS`): how long a duplicate waits for the original's answer. */
  syncWaitMs: number;
  /** How long an answer is replayed (24 h). */
  ttlMs?: number;
  /** After how long an unanswered record counts as abandoned by a request that died. */
  staleMs?: number;
  /** The error body a kept error answer is stored with: the one the app answers it with on that path. */
  renderError?: RenderError;
}

type RenderError = (ctx: Context, err: AppError) => { status: number; body: unknown };

/** The `/v1` body, for an app that gives no renderer. */
const v1Rendered: RenderError = (_ctx, err) => ({
  status: err.status,
  body: v1ErrorBody(err.status, err.message, err.code, err.extra),
});

/**
 * `Idempotency-Key` on `/v1` POSTs (runs after authentication and rate limiting, in front of the
 * routes). Keys are per API key; "the same request" is the same method, path and JSON body.
 *
 * - First request with a key: claims it (INSERT … ON CONFLICT), runs the route, notes the run it
 *   starts as soon as it exists, and stores the answer — status, body and the headers the route
 *   set — once it has one.
 * - Same key, same request, answered: the stored answer again (`Idempotent-Replayed: true`). An
 *   answer kept while its run was still going (504) is not replayed: the duplicate answers from
 *   the run (waits for it, or its result), and that answer is kept instead once the run has ended.
 * - Same key, same request, still being answered: waits for the first request's answer, polling
 *   the record up to the request's own wait (`Prefer: wait` or its announced time-out, at most
 *   `SYNC_WAIT_MS`; none with `Prefer: respond-async`), then 409 `IDEMPOTENCY_KEY_IN_PROGRESS`,
 *   naming the run when it has started.
 *   Simultaneous duplicates therefore create one run. A record left unanswered by a request that
 *   died is taken over once stale: by a duplicate that answers from the run it had started, or,
 *   when it had started none, by any request with the key.
 * - Same key, another request: 409 `IDEMPOTENCY_KEY_REUSED`.
 * - Records older than 24 h count as absent and are replaced.
 *
 * Which answers are kept: only those of requests that created a run — every 2xx, and the
 * run-level errors that carry a `job_id` (a failed run's 500, 504 `RUN_TIMEOUT`, 409
 * `RUN_CANCELLED`). A request refused before any run existed (422 schema, 400 rules, 404, 503
 * queue down) leaves no record, so the client may fix the body and send it again with the same
 * key; replaying such an error would only force it to invent a new key for the corrected request.
 * A streamed answer cannot be replayed: a later duplicate gets 409 `IDEMPOTENCY_REPLAY_UNAVAILABLE`
 * rather than a second run.
 */
export function idempotency(ds: DataSource, options: IdempotencyOptions): Middleware<V1State> {
  const ttlMs = options.ttlMs ?? IDEMPOTENCY_TTL_MS;
  const staleMs = options.staleMs ?? options.syncWaitMs + 60_000;
  const render = options.renderError ?? v1Rendered;

  return async (ctx, next) => {
    if (ctx.method !== "POST") return next();
    const key = ctx.headers["idempotency-key"];
    if (key === undefined) return next();
    if (typeof key !== "string" || !KEY_FORMAT.test(key)) {
      throw new BadRequestError(
        "Idempotency-Key must be 1 to 255 printable ASCII characters",
        {},
        "INVALID_IDEMPOTENCY_KEY",
      );
    }
    const claim = { apiKeyId: ctx.state.auth.apiKeyId, key, hash: requestHash(ctx.method, ctx.path, ctx.request.body) };
    const prefer = parsePrefer(ctx.get("prefer"));
    const waitMs = Math.min(prefer.waitMs ?? options.syncWaitMs, options.syncWaitMs) + WAIT_GRACE_MS;
    // Never past the time-out the client announced: it would not hear the answer. A duplicate that
    // asked not to wait (`Prefer: respond-async`) does not: it holds no slot of the open-request
    // caps, so a wait would let any number of them sit on the connection and poll the record.
    const deadline = prefer.respondAsync ? Date.now() : Date.now() + Math.min(waitMs, announcedWaitMs(ctx) ?? waitMs);

    for (;;) {
      const held = await claimKey(ds, claim, ttlMs, staleMs);
      if (held?.owned) return runAsOwner(ctx, next, ds, held, render);
      if (held) {
        if (held.record.request_hash !== claim.hash) {
          throw new AppError(
            409,
            "IDEMPOTENCY_KEY_REUSED",
            "This Idempotency-Key was already used for a different request (another body or path) in the last 24 hours",
            {},
            retryHint(false),
          );
        }
        const record =
          held.record.response_status !== null ? held.record : await waitForAnswer(ds, held.record, deadline);
        // null: the first request left no answer (it failed before creating a run): claim again.
        if (record !== null) {
          if (isRunStillGoing(record)) return answerFromRun(ctx, next, ds, record, render);
          if (record.response_status !== null) return replay(ctx, record);
          throw inProgress(record.run_id); // still unanswered at the deadline
        }
      }
      if (Date.now() >= deadline) throw inProgress(null);
    }
  };
}

/** The 409 of a duplicate whose original is still being answered; it names the run once that exists. */
function inProgress(runId: string | null): AppError {
  return new AppError(
    409,
    "IDEMPOTENCY_KEY_IN_PROGRESS",
    "A request with this Idempotency-Key is still being processed; retry later",
    runId ? { job_id: runId } : {},
    { ...(runId ? { Location: `/v1/jobs/${runId}` } : {}), ...retryHint(true) },
  );
}

/** A kept answer that says the run was still going, with the run known: the run has the real answer. */
function isRunStillGoing(record: IdempotencyRecord): boolean {
  return record.response_status === 504 && record.run_id !== null;
}

/** Runs the route as the key's holder (answering from the run an abandoned holder started, if any), then keeps its answer or frees the key. */
async function runAsOwner(
  ctx: ParameterizedContext<V1State>,
  next: Next,
  ds: DataSource,
  held: { id: string; runId: string | null },
  render: RenderError,
): Promise<void> {
  let noted: Promise<void> = Promise.resolve();
  const earlierRunId = held.runId;
  ctx.state.attempt = {
    ...(earlierRunId ? { takeEarlierRun: () => Promise.resolve({ runId: earlierRunId }) } : {}),
    runFound: (runId) => {
      if (runId !== earlierRunId) noted = recordRun(ds, held.id, runId);
    },
  };
  await runKeeping(ctx, next, render, async (response, runId) => {
    // Bookkeeping must not change the answer: on failure the record stays unanswered and is
    // taken over once stale.
    await noted.catch((error: unknown) => ctx.state.logger?.warn({ err: error }, "idempotency record's run not noted"));
    await (response ? saveResponse(ds, held.id, response, runId) : releaseKey(ds, held.id));
  });
}

/** Answers a duplicate from the run its original's kept 504 named, keeping the run's answer once it has ended. */
async function answerFromRun(
  ctx: ParameterizedContext<V1State>,
  next: Next,
  ds: DataSource,
  record: IdempotencyRecord,
  render: RenderError,
): Promise<void> {
  const runId = record.run_id!;
  ctx.set("Idempotent-Replayed", "true");
  ctx.state.attempt = { takeEarlierRun: () => Promise.resolve({ runId }), runFound: () => undefined };
  await runKeeping(ctx, next, render, async (response) => {
    // Kept only once the run has ended: a 202 (a duplicate sent with `respond-async`) or another
    // 504 would be replayed for a day as if the run were still queued.
    if (response && response.status !== 504 && response.status !== 202)
      await replaceTimedOutAnswer(ds, record.id, response);
  });
}

/**
 * Runs the route and hands `keep` the answer to keep for the key (null when the request created
 * nothing) and the run it names, whether the route answered or threw. A failure to keep it is
 * logged, never answered.
 */
async function runKeeping(
  ctx: ParameterizedContext<V1State>,
  next: Next,
  render: RenderError,
  keep: (response: StoredResponse | null, runId: string | null) => Promise<void>,
): Promise<void> {
  const headersBefore = new Set(Object.keys(ctx.response.headers));
  let response: StoredResponse | null = null;
  let runId: string | null = null;
  try {
    await next();
    if (ctx.respond === false) {
      // Server-Sent Events written straight to the socket: a run exists, its frames are gone.
      response = streamedAnswer(ctx, render);
    } else if (ctx.status >= 200 && ctx.status < 300) {
      response = replayable(ctx.body)
        ? { status: ctx.status, body: ctx.body ?? null, headers: routeHeaders(ctx, headersBefore) }
        : streamedAnswer(ctx, render);
      runId = jobIdOf(ctx.body);
    }
  } catch (err) {
    if (err instanceof AppError && typeof err.extra.job_id === "string") {
      // The body the error middleware renders for it on this path.
      response = { ...render(ctx, err), headers: { ...routeHeaders(ctx, headersBefore), ...err.headers } };
      runId = err.extra.job_id;
    }
    throw err;
  } finally {
    await keep(response, runId).catch((error: unknown) =>
      ctx.state.logger?.warn({ err: error }, "idempotency record not updated"),
    );
  }
}

/**
 * Polls the record until it holds an answer, the deadline passes (the record as last read, still
 * unanswered) or it disappears or is taken over (null).
 */
async function waitForAnswer(
  ds: DataSource,
  held: IdempotencyRecord,
  deadline: number,
): Promise<IdempotencyRecord | null> {
  let delay = 10;
  let record = held;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return record;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
    delay = Math.min(delay * 2, 250);
    const read = await findRecord(ds, held.id);
    if (!read) return null;
    record = read;
    if (record.response_status !== null) return record;
  }
}

function replay(ctx: Context, record: IdempotencyRecord): void {
  ctx.status = record.response_status!;
  if (record.response_headers) ctx.set(record.response_headers);
  ctx.set("Idempotent-Replayed", "true");
  // A null body would make Koa answer 204 whatever the stored status.
  if (record.response_body !== null) ctx.body = record.response_body;
}

/** JSON values can be stored and sent again; streams and buffers cannot. */
function replayable(body: unknown): boolean {
  if (body === null || body === undefined) return true;
  if (typeof body !== "object")
    return typeof body === "string" || typeof body === "number" || typeof body === "boolean";
  return !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== "function";
}

function streamedAnswer(ctx: Context, render: RenderError): StoredResponse {
  const detail = "The first request with this Idempotency-Key was answered with a stream, which cannot be replayed";
  const error = new AppError(409, "IDEMPOTENCY_REPLAY_UNAVAILABLE", detail, {}, retryHint(false));
  return { ...render(ctx, error), headers: error.headers };
}

/** The run an answer names: `job_id`, or a batch's `batch_id` (its parent run). */
function jobIdOf(body: unknown): string | null {
  if (!body || typeof body !== "object") return null;
  const { job_id: jobId, batch_id: batchId } = body as { job_id?: unknown; batch_id?: unknown };
  return typeof jobId === "string" ? jobId : typeof batchId === "string" ? batchId : null;
}

/** Headers the route set (e.g. `Location` of a 202), not those of the middleware in front of it. */
function routeHeaders(ctx: Context, before: Set<string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (before.has(name) || BODY_HEADERS.has(name) || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return headers;
}
