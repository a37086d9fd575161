import type OpenAI from "openai";
import type { McpConfig } from "../../../shared/contracts/agent-spec";
import { boundText, TOOL_RESULT_MAX_CHARS } from "../../../shared/limits/outside-content";
import { configTimeoutMs, connectMcpServer, type McpConnection } from "./mcp-connection";
import { describeMcpError } from "./mcp-errors";
import { redactSecrets } from "./mcp-redact";
import { toolResultText } from "./mcp-result-text";
import { uniqueToolName } from "./mcp-tool-names";
import { McpToolListBounds } from "./mcp-tool-bounds";
import { mcpToolSettings } from "./mcp-tool-settings";

export { McpUnavailableError } from "./mcp-errors";

/** A tool as offered to the model (OpenAI chat completions `tools` entry). */
export type McpFunctionTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;

/** What a tool call produced, as the text of the tool message that answers it. */
export interface McpCallResult {
  text: string;
  /** True when the call failed or the tool reported an error; the text says why. */
  isError: boolean;
  /** The result's length and what was kept, when it was over `TOOL_RESULT_MAX_CHARS` and cut. */
  truncated?: { received: number; kept: number };
}

/** A server whose tool list was cut to the bounds: its URL, the tools read, the tools offered. */
export interface McpListCut {
  server: string;
  received: number;
  kept: number;
}

/** Where a function name offered to the model leads. */
interface McpRoute {
  connection: McpConnection;
  /** The tool's name on its server. */
  toolName: string;
  timeoutMs: number;
}

/** Calls arrive from the model; anything but a JSON object (or nothing) is a mistake it can fix. */
function parseArguments(
  argumentsJson: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (argumentsJson.trim() === "") return { ok: true, value: {} }; // models send "" for tools without parameters
  let value: unknown;
  try {
    value = JSON.parse(argumentsJson);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (value === null) return { ok: true, value: {} };
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, error: "expected a JSON object" };
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * The MCP servers of one agent run, connected, with their tools offered to the model as
 * function tools and calls routed back to the right server. Open it once per run and close it
 * when the run ends.
 */
export class McpToolbox {
  /** The function tools to send to the model, in server order then listing order. */
  readonly tools: McpFunctionTool[];
  /** The servers whose tools did not all fit in the bounds (`McpToolListBounds`). */
  readonly listCuts: McpListCut[] = [];
  private readonly routes = new Map<string, McpRoute>();
  private calls = 0;

  private constructor(private readonly connections: McpConnection[]) {
    const taken = new Set<string>();
    const tools: McpFunctionTool[] = [];
    const bounds = new McpToolListBounds();
    for (const connection of connections) {
      let kept = 0;
      let left = connection.listed - connection.tools.length; // read past the listing bound
      for (const tool of connection.tools) {
        const settings = mcpToolSettings(connection.config, tool.name);
        if (!settings.enabled) continue;
        const offered = bounds.admit(tool, tool.description ?? tool.title ?? tool.annotations?.title ?? "");
        if (!offered) {
          left++;
          continue;
        }
        const name = uniqueToolName(tool.name, taken);
        const timeoutMs =
          settings.timeoutSeconds !== null ? settings.timeoutSeconds * 1000 : configTimeoutMs(connection.config);
        this.routes.set(name, { connection, toolName: tool.name, timeoutMs });
        tools.push({ type: "function", function: { name, ...offered } });
        kept++;
      }
      if (left > 0) this.listCuts.push({ server: connection.label, received: connection.listed, kept });
    }
    this.tools = tools;
  }

  /**
   * Connects to every server at once and lists all their tools. If any server cannot be reached
   * or listed, the ones that did connect are closed and this throws `McpUnavailableError` for the
   * first failing server in config order: a run whose configured tools are missing would give
   * answers the client did not ask for. An abort through `signal` is rethrown as it is.
   */
  static async open(servers: McpConfig[], signal?: AbortSignal): Promise<McpToolbox> {
    const settled = await Promise.allSettled(servers.map((config) => connectMcpServer(config, signal)));
    const connections = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failure) {
      await Promise.allSettled(connections.map((c) => c.client.close()));
      throw signal?.aborted ? (signal.reason ?? failure.reason) : failure.reason;
    }
    return new McpToolbox(connections);
  }

  /** Tool calls sent to a server so far (each is billed); calls refused before sending are not. */
  get callCount(): number {
    return this.calls;
  }

  /** Whether `name` is one of {@link tools}, i.e. a call the model makes to it belongs here. */
  has(name: string): boolean {
    return this.routes.has(name);
  }

  /**
   * Runs the tool the model called and returns the text for its tool message. Every failure
   * (bad arguments, unknown tool, tool error, timeout, HTTP error, server gone) becomes an
   * `isError` result the model can react to, so this never throws — except when `signal` is
   * aborted, which is rethrown so the run stops. The authorization token never appears in the text.
   */
  async call(name: string, argumentsJson: string, signal?: AbortSignal): Promise<McpCallResult> {
    signal?.throwIfAborted();
    const route = this.routes.get(name);
    if (!route) return { isError: true, text: `Unknown tool: ${name}` };
    const args = parseArguments(argumentsJson);
    if (!args.ok) return { isError: true, text: `Invalid JSON arguments: ${args.error}` };

    const { connection, toolName, timeoutMs } = route;
    this.calls++;
    try {
      const result = await connection.client.callTool({ name: toolName, arguments: args.value }, undefined, {
        timeout: timeoutMs,
        signal,
      });
      // Only the token: header values are often short ordinary words, and blanking them would
      // corrupt real answers; a tool echoing the token, though, would hand it to the model.
      const whole = redactSecrets(toolResultText(result), connection.token ? [connection.token] : []);
      // Cut after the redaction, so a token the cut would split is never left half-shown.
      const { text, cut } = boundText(whole, TOOL_RESULT_MAX_CHARS);
      return {
        isError: Boolean(result.isError),
        text: result.isError ? `Tool error: ${text}` : text,
        ...(cut ? { truncated: cut } : {}),
      };
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      return { isError: true, text: `Tool call failed: ${describeMcpError(error, timeoutMs, connection.secrets)}` };
    }
  }

  /** Closes every connection; errors are ignored because there is nothing left to do with them. */
  async close(): Promise<void> {
    await Promise.allSettled(this.connections.map((c) => c.client.close()));
  }
}
