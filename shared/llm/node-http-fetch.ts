import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { config, type Config } from "../config";
import { MODEL_ANSWER_MAX_BYTES } from "../limits/outside-content";
import { requestLeftHook } from "./request-leaving";

/**
 * Connections per LLM endpoint: as many as the process may have LLM calls in flight
 * (`LLM_MAX_IN_FLIGHT`, held by workers/agents/llm-slots.ts), so a call that got its slot is never
 * queued again inside Node's agent waiting for a socket (a fixed 512 once held 1,000 concurrent
 * swarms of 3 agents to 512 calls at a time).
 */
export function llmSocketsPerHost(c: Pick<Config, "llm"> = config): number {
  return c.llm.maxInFlight;
}

const maxSockets = llmSocketsPerHost();
// Idle connections are kept up to the same number: Node's default of 256 closed the rest after a
// burst, and the next burst opened hundreds at once again (a server's listen backlog, 511 in Node,
// then drops connection attempts that come back only after a 1 s SYN retry).
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets }),
  "https:": new https.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets }),
};

function headerRecord(init: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const out: Record<string, string> = {};
  // The SDK hands over a Headers object already; anything else is normalised through one.
  (init instanceof Headers ? init : new Headers(init)).forEach((value, key) => (out[key] = value));
  return out;
}

/** What `fetch` rejects with when its signal aborts (the SDK tells an abort by the error's name). */
function abortError(signal: AbortSignal): DOMException {
  const error = new DOMException("This operation was aborted", "AbortError");
  (error as { cause?: unknown }).cause = signal.reason;
  return error;
}

/**
 * A read-once response over an already received body. Building a WHATWG `Response` and reading it
 * back through web streams costs more than the simulated LLM answer itself; the SDK only needs
 * status, headers, `json()` and `text()` of a JSON answer.
 */
function bufferedResponse(
  body: Buffer,
  meta: { status: number; statusText: string; headers: Headers },
  url: string,
): Response {
  const text = () => body.toString("utf8");
  const response = {
    ...meta,
    ok: meta.status >= 200 && meta.status < 300,
    url,
    redirected: false,
    type: "basic",
    body: null,
    bodyUsed: false,
    json: async () => JSON.parse(text()),
    text: async () => text(),
    arrayBuffer: async () => body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength),
    blob: async () => new Blob([body]),
    clone: () => bufferedResponse(body, meta, url),
  };
  return response as unknown as Response;
}

/** A JSON answer over `MODEL_ANSWER_MAX_BYTES`, left unread: the call is not asked again (it would be paid twice). */
export class AnswerTooLargeError extends Error {
  constructor() {
    super(`the answer is over ${MODEL_ANSWER_MAX_BYTES} bytes`);
  }
}

/**
 * A `fetch` for the OpenAI SDK built on node:http keep-alive agents. Node's built-in fetch costs
 * about half a millisecond more per call than the whole simulated LLM answer, which is too much on
 * the request path; this keeps the SDK (retries off, our own on top) and its streaming intact.
 * JSON answers are read whole, up to `MODEL_ANSWER_MAX_BYTES`; event streams are handed over as a web
 * stream (`StreamAccumulator` stops reading one at its bound).
 */
export const nodeHttpFetch: typeof fetch = (input, init = {}) => {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const request = transport.request(
      {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? "GET",
        headers: headerRecord(init.headers),
        agent: agents[url.protocol as "http:" | "https:"],
      },
      (res) => {
        const headers = new Headers();
        for (const [key, value] of Object.entries(res.headers))
          if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
        const meta = { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers };
        if (String(res.headers["content-type"] ?? "").includes("text/event-stream")) {
          resolve(new Response(Readable.toWeb(res) as ReadableStream, meta));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          // A JSON answer this large is no answer (see MODEL_ANSWER_MAX_BYTES): it is not held.
          if (size > MODEL_ANSWER_MAX_BYTES) {
            res.destroy();
            reject(new AnswerTooLargeError());
          } else chunks.push(chunk);
        });
        res.on("end", () => resolve(bufferedResponse(Buffer.concat(chunks), meta, url.href)));
        res.on("error", reject);
      },
    );
    request.on("error", reject);
    // The abort is wired by hand rather than through the request's `signal` option, which costs
    // more per call than the rest of this function: it destroys the request (and a streamed body).
    const signal = init.signal;
    if (signal) {
      if (signal.aborted) return void request.destroy(abortError(signal));
      const abort = () => request.destroy(abortError(signal));
      signal.addEventListener("abort", abort, { once: true });
      request.on("close", () => signal.removeEventListener("abort", abort));
    }
    // Marked sent once the body is with the operating system, not as it starts being written.
    const left = requestLeftHook();
    request.end(init.body as string | Buffer | undefined, left);
  });
};
