import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { SEARCH_PORT } from "../env";
import { closeNow, listenLocally } from "./local-server";

/** A request the search provider received. */
interface SearchRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: { query?: string; numResults?: number; contents?: { text?: { maxCharacters?: number } } };
  /** When it arrived and when it was answered (ms since the epoch): overlapping searches ran in parallel. */
  receivedAt: number;
  answeredAt?: number;
}

/** What the provider answers next: results made from the query, or a failure status. */
type SearchBehaviour = { results: "echo"; latencyMs?: number } | { status: number };

/**
 * A local search provider speaking Exa's `POST /search`: each answer has `numResults` results
 * whose titles, URLs and text name the query, cut to `contents.text.maxCharacters`, so a test can
 * find them in the model's next request. `requests` is its journal.
 */
export interface SearchServer {
  url: string;
  requests: SearchRequest[];
  set(behaviour: SearchBehaviour): void;
  close(): Promise<void>;
}

/** The text of result `i` for `query` (what a test expects the model to read). */
export function searchResultBody(query: string, i: number): string {
  return `Finding ${i + 1} about ${query}: the sky over the test network is a steady shade of blue.`;
}

/** Starts the local search provider on `port`. */
async function startSearchServer(port: number): Promise<SearchServer> {
  let behaviour: SearchBehaviour = { results: "echo" };
  const requests: SearchRequest[] = [];
  const server: Server = createServer((req, res) => {
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: SearchRequest["body"] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // recorded as an empty body; the test sees it
      }
      const entry: SearchRequest = { path: req.url ?? "", headers: req.headers, body, receivedAt };
      requests.push(entry);
      if ("status" in behaviour) return void res.writeHead(behaviour.status).end('{"error":"down"}');
      const latencyMs = behaviour.latencyMs ?? 0;
      const query = body.query ?? "";
      const max = body.contents?.text?.maxCharacters ?? 1000;
      const results = Array.from({ length: body.numResults ?? 3 }, (_, i) => ({
        title: `Result ${i + 1} for ${query}`,
        url: `https://search.example/${i + 1}?q=${encodeURIComponent(query)}`,
        publishedDate: "2026-11-01T00:00:00.000Z",
        text: searchResultBody(query, i).slice(0, max),
      }));
      setTimeout(() => {
        entry.answeredAt = Date.now();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results }));
      }, latencyMs);
    });
  });
  return {
    url: await listenLocally(server, port),
    requests,
    set(next) {
      behaviour = next;
    },
    close: () => closeNow(server),
  };
}

/**
 * The local search provider at SEARCH_PORT (where the harness's SEARCH_PROVIDER_URL points) for the
 * enclosing mocha suite: started in its `before` hook, closed in its `after` hook. The returned
 * handle reads the running server.
 */
export function searchServerForSuite(): SearchServer {
  let server: SearchServer | undefined;
  before(async () => {
    server = await startSearchServer(SEARCH_PORT);
  });
  after(async () => {
    await server?.close();
  });
  const running = (): SearchServer => {
    if (!server) throw new Error("the search server starts in the suite's before hook");
    return server;
  };
  return {
    get url() {
      return running().url;
    },
    get requests() {
      return running().requests;
    },
    set: (behaviour) => running().set(behaviour),
    close: () => running().close(),
  };
}
