import type { AgentSpec, McpConfig } from "../../../shared/contracts/agent-spec";
import { bearerToken } from "./mcp-headers";

/** Seconds an MCP request may take when the config does not say (the hosted API's default). */
export const DEFAULT_MCP_TIMEOUT_SECONDS = 10;

/** A config with the hosted API's defaults filled in, so later code never re-derives them. */
function withDefaults(config: McpConfig): McpConfig {
  const timeout =
    typeof config.timeout === "number" && Number.isFinite(config.timeout) && config.timeout > 0
      ? config.timeout
      : DEFAULT_MCP_TIMEOUT_SECONDS;
  return {
    ...config,
    type: config.type ?? "mcp",
    url: config.url.trim(),
    transport: config.transport ?? "streamable_http",
    timeout,
  };
}

/**
 * Every MCP server an agent spec names, in the order a reader of the spec would expect
 * (`mcp_url`, then `mcp_config`, then each of `mcp_configs.connections`), with defaults applied.
 * The same URL with the same credentials is kept once: listing its tools twice would only give the
 * model duplicate tools. The same URL with a different token stays, since it may see other data.
 */
export function collectMcpServers(spec: Pick<AgentSpec, "mcp_url" | "mcp_config" | "mcp_configs">): McpConfig[] {
  const candidates: McpConfig[] = [];
  if (typeof spec.mcp_url === "string") candidates.push({ url: spec.mcp_url });
  if (spec.mcp_config) candidates.push(spec.mcp_config);
  for (const connection of spec.mcp_configs?.connections ?? []) if (connection) candidates.push(connection);

  const seen = new Set<string>();
  const servers: McpConfig[] = [];
  for (const candidate of candidates) {
    if (typeof candidate.url !== "string" || candidate.url.trim() === "") continue;
    const config = withDefaults(candidate);
    const key = `${config.url}\n${bearerToken(config) ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    servers.push(config);
  }
  return servers;
}
