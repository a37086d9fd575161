import type { Context } from "koa";
import type { Admission } from "../limits/rate-limiter";

/** The tools that start runs: each call is billed and limited as a run request of its endpoint. */
const RUN_TOOLS = new Set(["run_agent", "run_swarm"]);

/**
 * The most JSON-RPC messages one POST may carry. Current MCP clients send one at a time (the 2025-06-18
 * protocol dropped batches); older ones batch a handful. Each message may start a run that waits up to
 * `SYNC_WAIT_MS`, so a bound well under the transport's own (100) keeps one request's work small.
 */
export const MAX_MCP_BATCH = 10;

/** One JSON-RPC message as far as the limits care: a request has a `method` and an `id`, a notification no `id`. */
interface Message {
  method?: unknown;
  id?: unknown;
  params?: { name?: unknown };
}

/** The messages of a parsed `/mcp` body (one, or a batch's items); whatever is not an object is ignored here. */
function messagesOf(body: unknown): Message[] {
  const items = Array.isArray(body) ? body : [body];
  return items.filter((item): item is Message => typeof item === "object" && item !== null);
}

const isRequest = (message: Message) => typeof message.method === "string" && message.id !== undefined;
const startsRun = (message: Message) =>
  message.method === "tools/call" && typeof message.params?.name === "string" && RUN_TOOLS.has(message.params.name);

/** Whether a parsed `/mcp` body is a batch over `MAX_MCP_BATCH` messages. */
export function isOversizedBatch(body: unknown): boolean {
  return Array.isArray(body) && body.length > MAX_MCP_BATCH;
}

/**
 * What an `/mcp` POST costs against the rate limits: one point per JSON-RPC request in it, as each
 * mirrors one `/v1` request (notifications and responses are free; a body that is neither still
 * costs one); one that calls `run_agent` or `run_swarm` also meets the daily spend ceilings.
 */
export function mcpAdmission(ctx: Context): Admission {
  const messages = messagesOf(ctx.request.body);
  const requests = messages.filter(isRequest).length;
  const parsedNothing = messages.length === 0;
  return { points: parsedNothing ? 1 : requests, startsRuns: messages.some(startsRun) };
}

/** Whether an `/mcp` POST waits for a run (it calls a run tool), and so holds an open-request slot while it does. */
export function mcpHoldsOpen(ctx: Context): boolean {
  return ctx.method === "POST" && messagesOf(ctx.request.body).some(startsRun);
}
