import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { EgressRefusedError, type EgressPolicy } from "./egress-policy";
import { noteEgressRefusals } from "./egress-refusals";

const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Statuses a WHATWG `Response` must have no body for. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
/** Request headers that describe a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];
/** Credentials that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** One request on the way to the final response. */
interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

type Agents = Record<"http:" | "https:", http.Agent>;

/** What `fetch` rejects with when its signal aborts (callers tell an abort by the error's name). */
function abortError(signal: AbortSignal): DOMException {
  const error = new DOMException("This operation was aborted", "AbortError");
  (error as { cause?: unknown }).cause = signal.reason;
  return error;
}

/** Sends one hop; the connection goes through the policy's checked lookup. Rejects when refused. */
function send(hop: Hop, policy: EgressPolicy, agents: Agents, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const lookup = policy.connectLookup(hop.url); // throws for a refused URL: nothing is sent
    const transport = hop.url.protocol === "https:" ? https : http;
    let response: http.IncomingMessage | undefined;
    const request = transport.request(
      {
        protocol: hop.url.protocol,
        hostname: hop.url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: hop.url.port,
        path: `${hop.url.pathname}${hop.url.search}`,
        method: hop.method,
        headers: hop.headers,
        agent: agents[hop.url.protocol as keyof Agents],
        ...(lookup ? { lookup } : {}),
      },
      (res) => {
        response = res;
        res.on("close", () => signal.removeEventListener("abort", abort));
        resolve(res);
      },
    );
    request.on("error", reject);
    // An abort ends a body still streaming (an event stream) with the AbortError, as fetch does.
    const abort = () => (response ?? request).destroy(abortError(signal));
    signal.addEventListener("abort", abort, { once: true });
    request.on("close", () => response || signal.removeEventListener("abort", abort));
    request.end(hop.body);
  });
}

function toResponse(res: http.IncomingMessage, url: URL, redirected: boolean): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(res.headers))
    for (const one of [value ?? []].flat()) headers.append(key, one);
  const status = res.statusCode ?? 0;
  const nullBody = NULL_BODY_STATUSES.has(status);
  if (nullBody) res.resume();
  const response = new Response(nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
    status,
    statusText: res.statusMessage ?? "",
    headers,
  });
  Object.defineProperties(response, { url: { value: url.href }, redirected: { value: redirected } });
  return response;
}

/** The request a redirect leads to, following the fetch standard's method and header rules. */
function nextHop(hop: Hop, status: number, target: URL): Hop {
  const toGet =
    (status === 303 && hop.method !== "GET" && hop.method !== "HEAD") ||
    ((status === 301 || status === 302) && hop.method === "POST");
  const headers = { ...hop.headers };
  if (toGet) for (const name of BODY_HEADERS) delete headers[name];
  if (target.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  return { url: target, method: toGet ? "GET" : hop.method, headers, body: toGet ? undefined : hop.body };
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, key) => (record[key] = value));
  return record;
}

/**
 * A `fetch` whose every connection obeys `policy`: a refused URL or resolved address, or a name
 * that does not resolve, rejects with `EgressRefusedError` before anything is sent, on the first request and on every redirect
 * hop it follows (`redirect: "manual"` hands redirects back to the caller, whose next request
 * comes through here again). Built on node:http, since Node's own fetch takes no custom lookup.
 */
export function createEgressFetch(policy: EgressPolicy): typeof fetch {
  const agents: Agents = {
    "http:": new http.Agent({ keepAlive: true }),
    "https:": new https.Agent({ keepAlive: true }),
  };
  return async (input, init) => {
    const request = new Request(input, init);
    let hop: Hop = {
      url: new URL(request.url),
      method: request.method,
      headers: headerRecord(request.headers),
      body: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
    };
    for (let redirects = 0; ; redirects++) {
      const res = await send(hop, policy, agents, request.signal).catch((err: unknown) => {
        if (err instanceof EgressRefusedError) noteEgressRefusals("connection", [err]);
        throw err;
      });
      const status = res.statusCode ?? 0;
      const location = REDIRECT_STATUSES.has(status) ? res.headers.location : undefined;
      if (!location || request.redirect === "manual") return toResponse(res, hop.url, redirects > 0);
      res.destroy();
      if (request.redirect === "error") throw new TypeError("fetch failed: the server answered with a redirect");
      if (redirects === MAX_REDIRECTS) throw new TypeError(`fetch failed: more than ${MAX_REDIRECTS} redirects`);
      let target: URL;
      try {
        target = new URL(location, hop.url);
      } catch {
        throw new TypeError("fetch failed: the redirect location is not a valid URL");
      }
      hop = nextHop(hop, status, target);
    }
  };
}
