import { createHash } from "node:crypto";
import type { Middleware, ParameterizedContext } from "koa";
import { requestHash } from "../../shared/db/idempotency-store";
import { AppError } from "../../shared/errors";
import type { RedisClient } from "../../shared/queues/redis";
import { rememberUnanswered, takeUnanswered, type AttemptIdentity } from "../../shared/queues/unanswered-attempts";
import type { EarlierRun, RunAttempt } from "../spine/run-attempt";
import { MIN_PATIENCE_MS, waitWithin } from "./client-wait";
import type { V1State } from "./state";

/** How many times the client sent this request before (`X-Stainless-Retry-Count`; 0 when it does not say). */
function retriesBefore(header: string): number {
  return /^\d{1,6}$/.test(header) ? Number(header) : 0;
}

/**
 * What a client's retries repeat: the method, path and canonical body (as for `Idempotency-Key`)
 * and the client (`User-Agent`), so another program of the same key sending the same body is not
 * taken for this one.
 */
function identityOf(ctx: ParameterizedContext<V1State>): AttemptIdentity {
  const fingerprint = createHash("sha256")
    .update(`${requestHash(ctx.method, ctx.path, ctx.request.body)}\n${ctx.get("user-agent")}`, "utf8")
    .digest("hex");
  return { apiKeyId: ctx.state.auth.apiKeyId, accountId: ctx.state.auth.userId, fingerprint };
}

/**
 * Attaches a client's retry of a run request to the run its earlier attempt started, instead of
 * starting another (runs after authentication, rate limits and `idempotency`, which handles the
 * requests that carry an `Idempotency-Key`).
 *
 * - An attempt that started (or answered from) a run and whose answer did not reach its client as
 *   a success is remembered for a few minutes (`rememberUnanswered`): the client left before the
 *   answer was written (its time-out), or the answer was an error naming the run (504 while it
 *   goes on, a failed run's 500, 409 `RUN_CANCELLED`), which a client may retry.
 * - A request saying it is a retry (`X-Stainless-Retry-Count` ≥ 1, which the Stainless-generated
 *   SDKs send) takes the oldest remembered run of the same key, method, path, body and client, and
 *   its use case answers from it (waiting for it, or streaming it from the start). A request that
 *   does not say so is never a retry: two identical requests are two runs.
 * - A client that left is a client whose time-out was seen: its retries wait a little less than
 *   that, so each is answered (at worst 504 naming the job) before its client gives up again.
 *
 * Nothing is read or hashed for a request that is no retry and whose answer reaches its client.
 */
export function retriedRequests(redis: RedisClient): Middleware<V1State> {
  return async (ctx, next) => {
    // A request with an Idempotency-Key is the key's: its record knows its run.
    if (ctx.method !== "POST" || ctx.headers["idempotency-key"] !== undefined) return next();
    const attempt = trackAttempt(ctx, redis);
    ctx.state.attempt = attempt.hooks;
    try {
      await next();
    } catch (err) {
      // Remembered before the error is answered, so the client's retry cannot come first.
      if (err instanceof AppError && typeof err.extra.job_id === "string") await attempt.unanswered();
      throw err;
    }
  };
}

/** One attempt's hooks for its use case, and what remembers it as unanswered (once at most). */
function trackAttempt(
  ctx: ParameterizedContext<V1State>,
  redis: RedisClient,
): { hooks: RunAttempt; unanswered: () => Promise<void> } {
  const started = Date.now();
  let runId: string | null = null;
  // How long the client waits before it gives up: seen when it leaves, or passed on from the
  // attempt this one answers from, so that each retry is answered before its client gives up.
  let patienceMs: number | undefined;
  let remembered = false;
  let identity: AttemptIdentity | null = null;
  const who = () => (identity ??= identityOf(ctx));
  const unanswered = async () => {
    if (remembered || runId === null) return;
    remembered = true;
    await rememberUnanswered(redis, who(), { runId, patienceMs }).catch((err: unknown) =>
      ctx.state.logger?.warn({ err }, "an unanswered attempt could not be remembered; its retry will start a run"),
    );
  };
  const runFound = (id: string) => {
    runId = id;
    // A response closed before it finished is one whose client left (or whose connection broke).
    const ifClientLeft = () => {
      if (ctx.res.writableFinished) return;
      const waited = Date.now() - started;
      if (waited >= MIN_PATIENCE_MS) patienceMs = waited; // a connection that dropped at once says nothing of it
      void unanswered();
    };
    if (ctx.res.destroyed) ifClientLeft();
    else ctx.res.once("close", ifClientLeft);
  };
  const takeEarlierRun = async (): Promise<EarlierRun | null> => {
    // Redis failing here costs what a retry cost before this existed: a run of its own.
    const earlier = await takeUnanswered(redis, who()).catch((err: unknown) => {
      ctx.state.logger?.warn({ err }, "no earlier attempt could be looked up; this retry starts a run");
      return null;
    });
    if (!earlier) return null;
    patienceMs = earlier.patienceMs;
    return { runId: earlier.runId, ...(patienceMs === undefined ? {} : { waitMs: waitWithin(patienceMs) }) };
  };
  const isRetry = retriesBefore(ctx.get("x-stainless-retry-count")) >= 1;
  return { hooks: isRetry ? { runFound, takeEarlierRun } : { runFound }, unanswered };
}
