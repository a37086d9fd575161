import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { handleChatCompletion, type SimulatorState } from "./chat-handler";
import { handleEmbeddings } from "./embeddings-handler";
import { sendError, sendInternalError } from "./errors";
import { FailureCounter } from "./failure-counter";
import { readBody, sendJson } from "./http-io";
import { scriptProblem, scriptRule } from "./scripts";
import { isListedModel, modelList, modelObject } from "./models";
import { warmTokenizer } from "./tokens";
import { RateLimits, type KeyRateLimit } from "./rate-limits";
import type { JournalEntry, ScriptedReply } from "./types";

export interface SimulatorOptions {
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port to bind; 0 picks a free one. Default 8090. */
  port?: number;
  /** Requests and tokens per window every API key gets (default: none). */
  rateLimit?: KeyRateLimit;
  /**
   * Answer chat requests for any model name, as a gateway that forwards every name does (default:
   * false: a name the simulator does not know gets OpenAI's 404 `model_not_found`).
   */
  anyModel?: boolean;
}

export interface Simulator {
  /** OpenAI base URL, e.g. `http://127.0.0.1:8090/v1`. */
  url: string;
  port: number;
  /** Chat requests received, oldest first (live array, capped at the last 10,000). */
  journal: JournalEntry[];
  /** Embeddings requests received, oldest first (live array, capped as `journal` is). */
  embeddingJournal: JournalEntry[];
  /** Chat requests open now, and the most open at once since the start or `resetPeak()`. */
  concurrency(): { now: number; peak: number };
  /** Starts counting the peak of open chat requests afresh from those open now. */
  resetPeak(): void;
  /** Empties the journals and forgets `sim_error_times` counters. */
  clearJournal(): void;
  /**
   * Answers requests whose user, system or tool text contains `rule.contains` as the rule says
   * (its reply, error status, latency; the newest matching rule wins).
   */
  script(rule: ScriptedReply): void;
  /** Forgets every scripted answer. */
  clearScripts(): void;
  /**
   * Sets the requests and tokens per window of one API key (the bearer token; "" for every key
   * not set on its own), or with null lifts them; every key's window starts whole again.
   */
  setRateLimit(apiKey: string, limit: KeyRateLimit | null): void;
  /** Turns the any-model catch-all (`anyModel`) on or off, for a test that means to call a made-up model. */
  acceptAnyModel(on: boolean): void;
  /** Stops listening and drops open connections (including in-flight streams). */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 8090;

// Longer than typical client pool idle timeouts, so the server is never the side that closes a
// reused connection mid-request (which shows up as sporadic ECONNRESET in benchmarks).
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
// A provider accepts thousands of new connections at once; Node's default backlog (511) dropped the
// rest of a worker's burst (thousands of calls opening their sockets together), and each dropped
// attempt came back only after a 1 s SYN retry. The kernel caps it at `net.core.somaxconn`.
const LISTEN_BACKLOG = 4_096;

/** Routes one request. The path is matched with and without `/v1` to tolerate either base URL. */
function route(req: IncomingMessage, res: ServerResponse, state: SimulatorState, clear: () => void): void {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  let path = query === -1 ? url : url.slice(0, query);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  if (path.startsWith("/v1/")) path = path.slice(3);
  const method = req.method ?? "GET";

  if (path === "/chat/completions") {
    if (method === "POST") return handleChatCompletion(req, res, state);
    return sendError(res, 405, `Method ${method} not allowed on ${path}; use POST.`);
  }
  if (path === "/embeddings") {
    if (method === "POST") return handleEmbeddings(req, res, state);
    return sendError(res, 405, `Method ${method} not allowed on ${path}; use POST.`);
  }
  if (path === "/models" && method === "GET") return sendJson(res, 200, modelList());
  if (path.startsWith("/models/") && method === "GET") {
    const id = decodeURIComponent(path.slice("/models/".length));
    if (isListedModel(id)) return sendJson(res, 200, modelObject(id));
    return sendError(res, 404, `The model '${id}' does not exist`, "model");
  }
  if (path === "/_journal") {
    if (method === "GET") return sendJson(res, 200, state.journal);
    if (method === "DELETE") {
      clear();
      res.writeHead(204).end();
      return;
    }
  }
  if (path === "/_journal/embeddings" && method === "GET") return sendJson(res, 200, state.embeddingJournal);
  if (path === "/_scripts") return routeScripts(req, res, state, method);
  if (path === "/_health" && method === "GET") return sendJson(res, 200, { ok: true });
  sendError(res, 404, `Invalid URL (${method} ${url})`);
}

/** `/_scripts`: GET lists the scripted answers, POST adds one `{contains, reply?, error?, latency_ms?}`, DELETE forgets them all. */
function routeScripts(req: IncomingMessage, res: ServerResponse, state: SimulatorState, method: string): void {
  if (method === "GET") return sendJson(res, 200, state.scripts);
  if (method === "DELETE") {
    state.scripts.length = 0;
    res.writeHead(204).end();
    return;
  }
  if (method !== "POST")
    return sendError(res, 405, `Method ${method} not allowed on /_scripts; use GET, POST or DELETE.`);
  readBody(req, 1024 * 1024, (raw) => {
    let rule: unknown;
    try {
      rule = JSON.parse(raw ?? "");
    } catch {
      rule = null;
    }
    const problem = scriptProblem(rule);
    if (problem) return sendError(res, 400, `Invalid script: ${problem}.`);
    const added = scriptRule(rule as ScriptedReply);
    state.scripts.push(added);
    sendJson(res, 201, added);
  });
}

function baseUrl(host: string, port: number): string {
  // A wildcard bind address is not something clients can connect to.
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}/v1`;
}

/** Starts a simulator and resolves once it is listening. */
export async function createSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const host = opts.host ?? "127.0.0.1";
  const state: SimulatorState = {
    journal: [],
    embeddingJournal: [],
    failures: new FailureCounter(),
    scripts: [],
    concurrency: { now: 0, peak: 0 },
    rateLimits: new RateLimits(opts.rateLimit ?? null),
    anyModel: opts.anyModel ?? false,
  };
  const clearJournal = () => {
    state.journal.length = 0;
    state.embeddingJournal.length = 0;
    state.failures.clear();
  };
  warmTokenizer();

  const server = createServer({ noDelay: true, keepAlive: true }, (req, res) => {
    try {
      route(req, res, state, clearJournal);
    } catch (err) {
      sendInternalError(res, err);
    }
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: opts.port ?? DEFAULT_PORT, host, backlog: LISTEN_BACKLOG }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl(host, port),
    port,
    journal: state.journal,
    embeddingJournal: state.embeddingJournal,
    clearJournal,
    concurrency: () => ({ ...state.concurrency }),
    resetPeak() {
      state.concurrency.peak = state.concurrency.now;
    },
    script(rule) {
      state.scripts.push(scriptRule(rule));
    },
    clearScripts() {
      state.scripts.length = 0;
    },
    setRateLimit(apiKey, limit) {
      state.rateLimits.set(apiKey, limit);
    },
    acceptAnyModel(on) {
      state.anyModel = on;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
