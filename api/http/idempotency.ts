import type { Context, Middleware, Next } from "koa";
import type { DataSource } from "typeorm";
import { AppError, BadRequestError } from "../../shared/errors";
import {
  IDEMPOTENCY_TTL_MS,
  claimKey,
  findRecord,
  releaseKey,
  requestHash,
  saveResponse,
  type IdempotencyRecord,
  type StoredResponse,
} from "../../shared/db/idempotency-store";
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
 * - First request with a key: claims it (INSERT … ON CONFLICT), runs the route, and stores the
 *   answer — status, body and the headers the route set — once it has one.
 * - Same key, same request, answered: the stored answer again (`Idempotent-Replayed: true`).
 * - Same key, same request, still being answered: waits for the first request's answer, polling
 *   the record up to the request's own wait (`Prefer: wait` or its announced time-out, at most
 *   `SYNC_WAIT_MS`), then 409
 *   `IDEMPOTENCY_KEY_IN_PROGRESS`. Simultaneous duplicates therefore create one run.
 * - Same key, another request: 409 `IDEMPOTENCY_KEY_REUSED`.
 * - Records older than 24 h count as absent and are replaced.
 *
 * Which answers are kept: only those of requests that created a run — every 2xx, and the
 * run-level errors that carry a `job_id` (500 `RUN_FAILED`, 504 `RUN_TIMEOUT`, 409
 * `RUN_CANCELLED`). A request refused before any run existed (422 schema, 400 rules, 404, 503
 * queue down) leaves no record, so the client may fix the body and send it again with the same
 * key; replaying such an error would only force it to invent a new key for the corrected request.
 * A streamed answer cannot be replayed: a later duplicate gets 409 `IDEMPOTENCY_REPLAY_UNAVAILABLE`
 * rather than a second run.
 */
export function idempotency(ds: DataSource, options: IdempotencyOptions): Middleware<V1State> {
  const ttlMs = options.ttlMs ?? IDEMPOTENCY_TTL_MS;
  const staleMs = options.staleMs ?? options.syncWaitMs + 60_000;

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
    // Never past the time-out the client announced: it would not hear the answer.
    const deadline = Date.now() + Math.min(waitMs, announcedWaitMs(ctx) ?? waitMs);

    for (;;) {
      const held = await claimKey(ds, claim, ttlMs, staleMs);
      if (held?.owned) return runAsOwner(ctx, next, ds, held.id, options.renderError ?? v1Rendered);
      if (held) {
        if (held.record.request_hash !== claim.hash) {
          throw new AppError(
            409,
            "IDEMPOTENCY_KEY_REUSED",
            "This Idempotency-Key was already used for a different request (another body or path) in the last 24 hours",
          );
        }
        const answered =
          held.record.response_status !== null ? held.record : await waitForAnswer(ds, held.record.id, deadline);
        if (answered) return replay(ctx, answered);
        // undefined: the first request left no answer (it failed before creating a run): claim again.
      }
      if (Date.now() >= deadline) {
        throw new AppError(
          409,
          "IDEMPOTENCY_KEY_IN_PROGRESS",
          "A request with this Idempotency-Key is still being processed; retry later",
        );
      }
    }
  };
}

/** Runs the route as the key's holder, then keeps its answer or frees the key. */
async function runAsOwner(ctx: Context, next: Next, ds: DataSource, id: string, render: RenderError): Promise<void> {
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
    // Bookkeeping must not change the answer: on failure the record stays unanswered and is
    // taken over once stale.
    await (response ? saveResponse(ds, id, response, runId) : releaseKey(ds, id)).catch((error: unknown) =>
      ctx.state.logger?.warn({ err: error }, "idempotency record not updated"),
    );
  }
}

/** Polls the record until it holds an answer (returned), disappears (undefined), or the deadline passes (409). */
async function waitForAnswer(ds: DataSource, id: string, deadline: number): Promise<IdempotencyRecord | undefined> {
  let delay = 10;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
    delay = Math.min(delay * 2, 250);
    const record = await findRecord(ds, id);
    if (!record) return undefined;
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
  return { ...render(ctx, new AppError(409, "IDEMPOTENCY_REPLAY_UNAVAILABLE", detail)), headers: {} };
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
