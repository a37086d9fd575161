import type { IncomingMessage, ServerResponse } from "node:http";
import { answersFor } from "./choices";
import { completionBody, newCompletionMeta, usageOf } from "./completion";
import { sendError, sendInternalError, sendModelNotFound, sendSimulatedError } from "./errors";
import { SampleTooLargeError } from "./schema-sample";
import type { FailureCounter } from "./failure-counter";
import { requestHash } from "./hash";
import { readBody, sendJson } from "./http-io";
import { recordRequest } from "./journal";
import { isKnownChatModel } from "./models";
import { parseChatRequest } from "./parse-request";
import { buildReply } from "./reply";
import { scriptFor, withScript } from "./scripts";
import { buildFrames, sendStream } from "./sse";
import { runAt } from "./timing";
import type { RateLimits } from "./rate-limits";
import type { JournalEntry, Reply, ScriptedReply } from "./types";

/** Mutable state one simulator instance shares across requests. */
export interface SimulatorState {
  journal: JournalEntry[];
  /** Embeddings requests, apart from the chat requests: readers of `journal` read chat messages. */
  embeddingJournal: JournalEntry[];
  failures: FailureCounter;
  /** Scripted answers, newest last (the newest matching rule wins). */
  scripts: ScriptedReply[];
  /** Chat requests open now and the most open at once since the last reset (a client's real concurrency). */
  concurrency: { now: number; peak: number };
  /** Requests and tokens per window per API key (none unless set). */
  rateLimits: RateLimits;
  /** Whether any model name is answered, as a gateway that forwards every name does (else unknown ones get 404). */
  anyModel: boolean;
}

/** The bearer token of a request: the API key its limits are counted against. */
export function apiKeyOf(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? "";
  return auth.toLowerCase().startsWith("bearer ") ? auth.slice(7).trim() : "";
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
  const apiKey = apiKeyOf(req);
  readBody(req, BODY_LIMIT_BYTES, (raw) => {
    // This runs outside the server's request callback, so its own guard is needed.
    try {
      respond(res, state, raw, startedAt, at, apiKey);
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
  apiKey: string,
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
  if (!state.anyModel && !isKnownChatModel(request.model)) {
    recordRequest(state.journal, { at, body, status: 404 });
    sendModelNotFound(res, request.model);
    return;
  }
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

  let replies: Reply[];
  try {
    replies = answersFor(request, buildReply(request, controls, requestKey));
  } catch (err) {
    if (!(err instanceof SampleTooLargeError)) throw err;
    recordRequest(state.journal, { at, body, status: 400 });
    sendError(res, 400, err.message);
    return;
  }
  // The provider's limits count what the request uses: its prompt and the answer it gets.
  const usage = usageOf(replies);
  const rate = state.rateLimits.take(apiKey, usage.total_tokens);
  if (rate) for (const [name, value] of Object.entries(rate.headers)) res.setHeader(name, value!);
  if (rate?.retryAfterMs !== undefined) {
    recordRequest(state.journal, { at, body, status: 429 });
    sendError(res, 429, `Rate limit reached for requests: please try again in ${rate.retryAfterMs}ms.`);
    return;
  }
  recordRequest(state.journal, { at, body, status: 200 });
  const meta = newCompletionMeta(request.model);
  if (request.stream === true) {
    const includeUsage = request.stream_options?.include_usage === true;
    sendStream(res, buildFrames(meta, replies, includeUsage), startedAt, controls.latencyMs);
  } else {
    runAt(deadline, res, () => sendJson(res, 200, completionBody(meta, replies)));
  }
}
