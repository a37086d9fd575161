import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { McpConfig } from "../../../shared/contracts/agent-spec";
import { MCP_TOOLS_LISTED_MAX } from "../../../shared/limits/outside-content";
import { egressFetch } from "../../../shared/net/egress";
import { boundedFetch } from "./mcp-bounded-fetch";
import { describeMcpError, egressRefusalIn, McpUnavailableError } from "./mcp-errors";
import { bearerToken, mcpRequestHeaders, mcpSecrets } from "./mcp-headers";
import { displayUrl } from "./mcp-redact";
import { DEFAULT_MCP_TIMEOUT_SECONDS } from "./mcp-servers";

/** A server that was connected to and whose complete tool list is known. */
export interface McpConnection {
  config: McpConfig;
  client: Client;
  /** The tools the server lists, across all pages, up to `MCP_TOOLS_LISTED_MAX`. */
  tools: Tool[];
  /** How many tools were read before listing ended (more than `tools` holds when it stopped at the bound). */
  listed: number;
  /** Redacted from everything the model sees, tool results included. */
  token: string | null;
  /** Token and header values: redacted from error texts, which may echo the request. */
  secrets: string[];
  /** The server's URL safe to show. */
  label: string;
}

/** A server that paginates forever (a buggy cursor) must not hang the run. */
const MAX_TOOL_PAGES = 100;

const CLIENT_INFO = { name: "apiary", version: "0.1.0" };

/**
 * Tool results are taken as the server gives them, never checked against the server's own output
 * schema: the result is data the model reads, so a check protects nothing, and the SDK's default
 * validator compiles the schema's `pattern`s into regular expressions a server can make take
 * exponential time (`^(a|a)*$` on 27 characters took 0.8 s, each two more doubling it).
 */
const TAKE_AS_GIVEN: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

/** The config's timeout in ms (given in seconds). */
export function configTimeoutMs(config: McpConfig): number {
  const seconds =
    typeof config.timeout === "number" && Number.isFinite(config.timeout) && config.timeout > 0
      ? config.timeout
      : DEFAULT_MCP_TIMEOUT_SECONDS;
  return seconds * 1000;
}

/**
 * The server's tools, page after page, until the list ends or `MCP_TOOLS_LISTED_MAX` were read:
 * a server listing thousands of tools is not held whole (the agent offers at most `MCP_TOOLS_MAX`).
 */
async function listAllTools(
  client: Client,
  options: { timeout: number; signal?: AbortSignal },
): Promise<{ tools: Tool[]; listed: number }> {
  const tools: Tool[] = [];
  let listed = 0;
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, options);
    listed += result.tools.length;
    tools.push(...result.tools.slice(0, MCP_TOOLS_LISTED_MAX - tools.length));
    cursor = result.nextCursor;
    if (!cursor || cursors.has(cursor) || listed >= MCP_TOOLS_LISTED_MAX) return { tools, listed };
    cursors.add(cursor);
  }
  throw new Error(`the tool list did not end after ${MAX_TOOL_PAGES} pages`);
}

/**
 * Connects to one server over Streamable HTTP and lists all of its tools. Each step gets the
 * config's timeout. Every request goes through the egress policy (`egressFetch`), so an address
 * the policy refuses, or a name that no longer resolves, fails the connection with code
 * `EGRESS_REFUSED` and the policy's one message. Failure closes what was opened and throws
 * {@link McpUnavailableError}, free of the token, header values and anything the server answered; an abort through `signal` is rethrown as it is instead, since it is the run
 * being cancelled, not the server failing.
 */
export async function connectMcpServer(config: McpConfig, signal?: AbortSignal): Promise<McpConnection> {
  signal?.throwIfAborted();
  const label = displayUrl(config.url);
  const secrets = mcpSecrets(config);
  const timeout = configTimeoutMs(config);
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    throw new McpUnavailableError(label, "the URL is not valid");
  }
  const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: TAKE_AS_GIVEN });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: mcpRequestHeaders(config) },
    fetch: boundedFetch(egressFetch),
  });
  try {
    await client.connect(transport, { timeout, signal });
    const { tools, listed } = await listAllTools(client, { timeout, signal });
    return { config, client, tools, listed, token: bearerToken(config), secrets, label };
  } catch (error) {
    await client.close().catch(() => undefined);
    if (signal?.aborted) throw signal.reason ?? error;
    throw new McpUnavailableError(
      label,
      describeMcpError(error, timeout, secrets),
      egressRefusalIn(error) ? "EGRESS_REFUSED" : "MCP_UNAVAILABLE",
    );
  }
}
