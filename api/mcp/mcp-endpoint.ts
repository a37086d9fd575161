import type { Context, Middleware } from "koa";
import compose from "koa-compose";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { version } from "../../package.json";
import { config } from "../../shared/config";
import { AppError, AuthenticationError } from "../../shared/errors";
import type { ApiDeps } from "../deps";
import { apiKeyAuth } from "../http/auth";
import { jsonBody } from "../http/body";
import type { ErrorRenderer } from "../http/errors";
import { type ExhaustedKeys, refuseExhaustedKeys } from "../http/exhausted-keys";
import { openRequestSlots } from "../http/open-request-slot";
import { rateLimit, rateLimitBeforeLargeBodies } from "../http/rate-limit";
import type { V1State } from "../http/state";
import type { OpenRequests } from "../limits/open-requests";
import type { RateLimiter } from "../limits/rate-limiter";
import { isOversizedBatch, MAX_MCP_BATCH, mcpAdmission, mcpHoldsOpen } from "./mcp-messages";
import { callTool, MCP_TOOLS, type ToolCaller } from "./mcp-tools";

/** Where Apiary answers MCP clients, on the execution API's port. */
export const MCP_PATH = "/mcp";

/** What the MCP endpoint shares with `/v1`: the limiter, the open-request caps, the keys seen used up, the error bodies. */
export interface McpLimits {
  limiter: RateLimiter;
  openRequests: OpenRequests;
  exhaustedKeys: ExhaustedKeys;
  largeBodyBytes: number;
  errors: ErrorRenderer;
}

/** The challenge a 401 carries (RFC 6750), which MCP clients read to learn the endpoint takes a bearer token. */
const BEARER_CHALLENGE = 'Bearer realm="apiary", error="invalid_token", error_description="Invalid or missing API key"';

/** The API key, as `/v1` takes it, with the bearer challenge on its 401. */
function bearerAuth(deps: ApiDeps): Middleware<V1State> {
  const auth = apiKeyAuth(deps.keys);
  return async (ctx, next) => {
    try {
      await auth(ctx, next);
    } catch (err) {
      if (err instanceof AuthenticationError) ctx.set("WWW-Authenticate", BEARER_CHALLENGE);
      throw err;
    }
  };
}

/**
 * Stateless: every POST is answered on its own, so any web process can take any request and there is
 * no session to store, bound or end. Hence no server-initiated stream: GET and DELETE are 405.
 */
function postOnly(): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== "POST") {
      ctx.set("Allow", "POST");
      throw new AppError(
        405,
        "METHOD_NOT_ALLOWED",
        `Method ${ctx.method} is not allowed on ${MCP_PATH}; allowed: POST`,
      );
    }
    await next();
  };
}

/** Refuses a JSON-RPC batch of more than `MAX_MCP_BATCH` messages before any of it is counted or run. */
function boundedBatches(): Middleware {
  return async (ctx, next) => {
    if (isOversizedBatch(ctx.request.body))
      throw new AppError(400, "BATCH_TOO_LARGE", `A JSON-RPC batch holds at most ${MAX_MCP_BATCH} messages`);
    await next();
  };
}

/** An MCP server for one request, whose tools act for its caller. */
function mcpServer(deps: ApiDeps, caller: ToolCaller): Server {
  const server = new Server({ name: "apiary", version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: MCP_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(deps, caller, request.params.name, request.params.arguments),
  );
  return server;
}

/** The Koa request as the Fetch API's, for the transport (the body is already parsed and passed beside it). */
function fetchRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return new Request(`http://${MCP_PATH.slice(1)}.local${MCP_PATH}`, { method: ctx.method, headers });
}

/** Answers the JSON-RPC messages through the MCP SDK's streamable HTTP transport, in JSON (not SSE) responses. */
function answerMessages(deps: ApiDeps, errors: ErrorRenderer): Middleware<V1State> {
  return async (ctx) => {
    const caller: ToolCaller = { owner: ctx.state.auth, errors, log: ctx.state.logger };
    const server = mcpServer(deps, caller);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(fetchRequest(ctx), { parsedBody: ctx.request.body ?? null });
      ctx.status = response.status;
      response.headers.forEach((value, name) => ctx.set(name, value));
      ctx.body = await response.text();
    } finally {
      await server.close();
    }
  };
}

/**
 * `/mcp`: Apiary as an MCP server (streamable HTTP, stateless, JSON responses). Every request goes
 * through the `/v1` gates in the same order: the API key (`Authorization: Bearer` or `x-api-key`),
 * the keys seen used up, the rate limiter (one point per JSON-RPC request, the daily spend for a
 * run tool), the body limit, and an open-request slot while a run tool waits.
 */
export function mcpEndpoint(deps: ApiDeps, limits: McpLimits): Middleware {
  const { limiter, openRequests, exhaustedKeys, largeBodyBytes, errors } = limits;
  return compose([
    bearerAuth(deps),
    postOnly(),
    refuseExhaustedKeys(exhaustedKeys),
    rateLimitBeforeLargeBodies(limiter, { largeBodyBytes, exhaustedKeys }),
    jsonBody(config.http.bodyLimit),
    boundedBatches(),
    openRequestSlots(openRequests, mcpHoldsOpen),
    rateLimit(limiter, { admission: mcpAdmission, exhaustedKeys }),
    answerMessages(deps, errors),
  ]) as Middleware;
}
