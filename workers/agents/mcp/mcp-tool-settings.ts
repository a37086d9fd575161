import type { McpConfig } from "../../../shared/contracts/agent-spec";

/** What `tool_configurations` says about one tool. */
export interface McpToolSettings {
  enabled: boolean;
  /** Call timeout in seconds for this tool, or null for the server's `timeout`. */
  timeoutSeconds: number | null;
}

/**
 * How `tool_configurations` is read. The hosted API's schema only says "object", so Apiary gives it
 * one meaning: optional settings per tool, keyed by the tool's name as the SERVER spells it
 * (sanitised names can change when servers are added, the server's name does not):
 *
 *   { "search": { "enabled": false },     // the model never sees `search`
 *     "crawl":  { "timeout": 60 } }       // `crawl` calls may take 60 s instead of `timeout`
 *
 * Unknown keys, other value types and settings of tools the server does not have are ignored,
 * so configs written for other clients do not break a run.
 */
export function mcpToolSettings(config: McpConfig, toolName: string): McpToolSettings {
  const raw = config.tool_configurations?.[toolName];
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { enabled: true, timeoutSeconds: null };
  const entry = raw as Record<string, unknown>;
  const timeout = entry.timeout;
  return {
    enabled: entry.enabled !== false,
    timeoutSeconds: typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0 ? timeout : null,
  };
}
