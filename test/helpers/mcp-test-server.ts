import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  isInitializeRequest,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

/** One HTTP request the test server received. */
interface RecordedMcpRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The HTTP method (POST for messages, GET for the event stream, DELETE to end a session). */
  httpMethod: string;
  /** The JSON-RPC method of a POSTed single message (`initialize`, `tools/list`, `tools/call`, …). */
  method?: string;
  /** For `tools/call`, the tool's name. */
  tool?: string;
}

/** A real MCP server (official SDK, Streamable HTTP) listening on loopback, for tests. */
export interface McpTestServer {
  /** `http://127.0.0.1:<port>/mcp` (or the `host` it was started on) */
  url: string;
  port: number;
  requests: RecordedMcpRequest[];
  /** How many `tools/call` requests of each tool were handled. */
  callsByTool: Map<string, number>;
  /** GET event streams (one per connected client) still open; drops to 0 when clients close. */
  openStreams(): number;
  close(): Promise<void>;
}

/** Options of {@link startMcpTestServer}. */
export interface McpTestServerOptions {
  /** When set, any request without `Authorization: Bearer <token>` gets HTTP 401. */
  requireToken?: string;
  /** Tools per `tools/list` page; small values force clients to follow `nextCursor`. Default 3. */
  pageSize?: number;
  /** Prefixes answers of `echo` so tests can tell two servers apart. */
  name?: string;
  /**
   * The loopback address to listen on. Default 127.0.0.1, the one host the tests' EGRESS_ALLOW
   * allows; another one (127.0.0.2) stands for an internal service the egress policy must refuse.
   */
  host?: string;
  /** Adds a tool `huge` whose result is one text of this many characters (an outside result over every bound). */
  hugeResultChars?: number;
  /** Adds this many filler tools `many_<n>` after the usual ones (a tool list over the bounds). */
  extraTools?: number;
  /** Adds a tool `bloated` first whose input schema's JSON is about this many characters. */
  bloatedSchemaChars?: number;
  /**
   * Adds a tool `backtrack` whose output schema's `pattern` takes a backtracking regular expression
   * exponential time on the structured result it returns (a third party's schema is no instruction).
   */
  backtrackingSchema?: boolean;
}

function objectSchema(properties: Record<string, object>, required: string[]): Tool["inputSchema"] {
  // `$schema` is included on purpose: real servers (zod-to-json-schema) send it and OpenAI rejects it.
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties,
    required,
    additionalProperties: false,
  };
}

/** Only the tools' public description; handlers live in `callTool`. */
const TOOLS: Tool[] = [
  {
    name: "add",
    description: "Adds two numbers.",
    inputSchema: objectSchema({ a: { type: "number" }, b: { type: "number" } }, ["a", "b"]),
  },
  {
    name: "echo",
    description: "Returns the text it is given.",
    inputSchema: objectSchema({ text: { type: "string" } }, ["text"]),
  },
  {
    name: "whoami",
    description: "Shows the authorization and x-* headers of the request.",
    inputSchema: { type: "object" },
  },
  {
    name: "slow",
    description: "Answers after `ms` milliseconds.",
    inputSchema: objectSchema({ ms: { type: "number" } }, ["ms"]),
  },
  { name: "fail", description: "Always reports a tool error.", inputSchema: { type: "object" } },
  {
    name: "picture",
    description: "Returns an image and a structured value, but no text.",
    inputSchema: { type: "object" },
  },
  { name: "stats", description: "Returns only structured content.", inputSchema: { type: "object" } },
  // Names that are not valid OpenAI function names, to exercise sanitising.
  {
    name: "weather.lookup city",
    description: "A tool whose name needs sanitising.",
    inputSchema: { type: "object", properties: {} },
  },
  { name: "x".repeat(80), description: "A tool whose name is too long.", inputSchema: { type: "object" } },
  // Enough padding that paging over a small pageSize takes several round trips.
  ...Array.from({ length: 4 }, (_, i): Tool => ({
    name: `extra_${i + 1}`,
    description: `Filler tool ${i + 1}.`,
    inputSchema: { type: "object" },
  })),
];

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: "text", text: value }], ...(isError ? { isError: true } : {}) };
}

function headerLines(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): string {
  return Object.entries(headers)
    .filter(([key]) => key === "authorization" || key.startsWith("x-"))
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : value}`)
    .sort()
    .join("\n");
}

/** Waits `ms`, or rejects as soon as `signal` aborts (a cancelled call must not keep the server busy). */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The tools a server started with `opts` lists: the bloated one first, the usual ones, then the added ones. */
function toolsOf(opts: McpTestServerOptions): Tool[] {
  const bloated: Tool[] = opts.bloatedSchemaChars
    ? [
        {
          name: "bloated",
          description: "A tool whose schema is too big to offer.",
          inputSchema: objectSchema({ text: { type: "string", description: "d".repeat(opts.bloatedSchemaChars) } }, []),
        },
      ]
    : [];
  const huge: Tool[] = opts.hugeResultChars
    ? [{ name: "huge", description: "Returns a very long text.", inputSchema: { type: "object" } }]
    : [];
  const backtrack: Tool[] = opts.backtrackingSchema
    ? [
        {
          name: "backtrack",
          description: "Returns a value its own output schema takes exponential time to check.",
          inputSchema: { type: "object" },
          outputSchema: { type: "object", properties: { v: { type: "string", pattern: "^(a|a)*$" } } },
        },
      ]
    : [];
  const many = Array.from({ length: opts.extraTools ?? 0 }, (_, i): Tool => ({
    name: `many_${i + 1}`,
    description: `Added tool ${i + 1}.`,
    inputSchema: { type: "object" },
  }));
  return [...bloated, ...TOOLS, ...huge, ...backtrack, ...many];
}

function buildMcpServer(
  tools: Tool[],
  opts: McpTestServerOptions,
  name: string,
  callsByTool: Map<string, number>,
): Server {
  const pageSize = opts.pageSize ?? 3;
  const server = new Server({ name: `apiary-test-${name}`, version: "1.0.0" }, { capabilities: { tools: {} } });
  // The low-level Server because McpServer always lists every tool at once; paging is what we test.
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = request.params?.cursor ? Number(request.params.cursor) : 0;
    const page = tools.slice(start, start + pageSize);
    const next = start + pageSize;
    return { tools: page, ...(next < tools.length ? { nextCursor: String(next) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    callsByTool.set(request.params.name, (callsByTool.get(request.params.name) ?? 0) + 1);
    switch (request.params.name) {
      case "add":
        return text(String(Number(args.a) + Number(args.b)));
      case "echo":
        return text(name === "default" ? String(args.text) : `${name}: ${String(args.text)}`);
      case "whoami":
        return text(headerLines(extra.requestInfo?.headers ?? {}) || "(no headers)");
      case "slow":
        await wait(Number(args.ms), extra.signal);
        return text(`waited ${Number(args.ms)} ms`);
      case "fail":
        return text("the fail tool always fails", true);
      case "picture":
        return {
          content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
          structuredContent: { width: 1, height: 1 },
        };
      case "stats":
        return { content: [], structuredContent: { count: 3, unit: "bees" } };
      case "backtrack":
        return { content: [{ type: "text", text: "checked?" }], structuredContent: { v: `${"a".repeat(40)}!` } };
      case "huge":
        // Words, as real text is: a tokenizer takes far longer over one repeated letter.
        return text("honey bees ".repeat(Math.ceil((opts.hugeResultChars ?? 0) / 11)).slice(0, opts.hugeResultChars));
      default:
        if (tools.some((t) => t.name === request.params.name)) return text(`${request.params.name} ok`);
        return text(`unknown tool ${request.params.name}`, true);
    }
  });
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString("utf8");
  return body ? JSON.parse(body) : undefined;
}

function plainError(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/**
 * Starts a real MCP server (the official SDK's low-level `Server` over `StreamableHTTPServerTransport`,
 * with sessions) on `127.0.0.1:<random port>/mcp`. Sessions are stateful so a client's
 * `notifications/cancelled` reaches the server that runs the call, which lets `slow` stop early.
 */
export async function startMcpTestServer(opts: McpTestServerOptions = {}): Promise<McpTestServer> {
  const tools = toolsOf(opts);
  const name = opts.name ?? "default";
  const requests: RecordedMcpRequest[] = [];
  const callsByTool = new Map<string, number>();
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  const streams = new Set<ServerResponse>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const record: RecordedMcpRequest = { headers: { ...req.headers }, httpMethod: req.method ?? "" };
    requests.push(record);
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") return plainError(res, 404, "Not found");
    if (opts.requireToken && req.headers.authorization !== `Bearer ${opts.requireToken}`) {
      res
        .writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" })
        .end(JSON.stringify({ error: "unauthorized" }));
      return;
    }
    const body = req.method === "POST" ? await readJson(req) : undefined;
    if (body && typeof body === "object" && !Array.isArray(body)) {
      const message = body as { method?: unknown; params?: { name?: unknown } };
      if (typeof message.method === "string") record.method = message.method;
      if (message.method === "tools/call" && typeof message.params?.name === "string")
        record.tool = message.params.name;
    }

    const sessionId = req.headers["mcp-session-id"];
    if (req.method === "GET") {
      streams.add(res);
      res.on("close", () => streams.delete(res));
    }
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (!session) return plainError(res, 404, "Session not found");
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitializeRequest(body))
      return plainError(res, 400, "No session: initialize first");

    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    const server = buildMcpServer(tools, opts, name, callsByTool);
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) plainError(res, 500, error instanceof Error ? error.message : String(error));
      else res.end();
    });
  });
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => http.listen(0, host, resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: `http://${host}:${port}/mcp`,
    port,
    requests,
    callsByTool,
    openStreams: () => streams.size,
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map(({ server }) => server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
