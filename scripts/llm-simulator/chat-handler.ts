import type { IncomingMessage, ServerResponse } from "node:http";
import { completionBody, newCompletionMeta } from "./completion";
import { sendError, sendInternalError, sendSimulatedError } from "./errors";
import { SampleTooLargeError } from "./schema-sample";
import type { FailureCounter } from "./failure-counter";
import { requestHash } from "./hash";
import { readBody, sendJson } from "./http-io";
import { recordRequest } from "./journal";
import { parseChatRequest } from "./parse-request";
import { buildReply } from "./reply";
import { scriptFor, withScript } from "./scripts";
import { buildFrames, sendStream } from "./sse";
import { runAt } from "./timing";
import type { JournalEntry, Reply, ScriptedReply } from "./types";

/** Mutable state one simulator instance shares across requests. */
export interface SimulatorState {
  journal: JournalEntry[];
  failures: FailureCounter;
  /** Scripted answers, newest last (the newest matching rule wins). */
  scripts: ScriptedReply[];
  /** Chat requests open now and the most open at once since the last reset (a client's real concurrency). */
  concurrency: { now: number; peak: number };
}

// Far above any real prompt, low enough that a runaway client cannot exhaust memory.
const BODY_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * `POST /v1/chat/completions`: validate, apply the `sim_*` controls, answer (JSON or SSE) and
 * journal the request. Requests are journaled as soon as their status is decided, before any
 * simulated latency, so every request is recorded even if the client gives up waiting.
 */
export function handleChatCompletion(req: IncomingMessage, res: ServerResponse, state: SimulatorState): void {
  const startedAt = performance.now();
  const at = new Date().toISOString();
  const { concurrency } = state;
  concurrency.peak = Math.max(concurrency.peak, ++concurrency.now);
  // Open until answered or dropped by the client (an aborted call closes its connection).
  res.once("close", () => concurrency.now--);
  readBody(req, BODY_LIMIT_BYTES, (raw) => {
    // This runs outside the server's request callback, so its own guard is needed.
    try {
      respond(res, state, raw, startedAt, at);
    } catch (err) {
      sendInternalError(res, err);
    }
  });
}

function respond(
  res: ServerResponse,
  state: SimulatorState,
  raw: string | undefined,
  startedAt: number,
  at: string,
): void {
  if (raw === undefined) {
    if (res.headersSent || res.destroyed) return;
    recordRequest(state.journal, { at, body: null, status: 413 });
    sendError(res, 413, "Request body too large.", null, { connection: "close" });
    return;
  }
  const parsed = parseChatRequest(raw);
  if (!parsed.ok) {
    recordRequest(state.journal, { at, body: parsed.body, status: 400 });
    sendError(res, 400, parsed.message, parsed.param);
    return;
  }

  const { body, request } = parsed;
  // The request's own sim_* fields win over a script's.
  const controls = withScript(parsed.controls, scriptFor(state.scripts, request));
  let key: string | undefined;
  const requestKey = () => (key ??= requestHash(body));
  const deadline = startedAt + controls.latencyMs;

  const error = controls.error;
  if (
    error !== undefined &&
    (controls.errorModel === undefined || controls.errorModel === body.model) &&
    (controls.errorTimes === undefined || state.failures.shouldFail(requestKey(), controls.errorTimes))
  ) {
    recordRequest(state.journal, { at, body, status: error });
    runAt(deadline, res, () => sendSimulatedError(res, error, controls.retryAfterMs));
    return;
  }

  let reply: Reply;
  try {
    reply = buildReply(request, controls, requestKey);
  } catch (err) {
    if (!(err instanceof SampleTooLargeError)) throw err;
    recordRequest(state.journal, { at, body, status: 400 });
    sendError(res, 400, err.message);
    return;
  }
  recordRequest(state.journal, { at, body, status: 200 });
  const meta = newCompletionMeta(request.model);
  if (request.stream === true) {
    const includeUsage = request.stream_options?.include_usage === true;
    sendStream(res, buildFrames(meta, reply, includeUsage), startedAt, controls.latencyMs);
  } else {
    runAt(deadline, res, () => sendJson(res, 200, completionBody(meta, reply)));
  }
}
