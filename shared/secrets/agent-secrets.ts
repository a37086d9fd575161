import type { AgentSpec, McpConfig } from "../contracts/agent-spec";
import { mapAgentTree } from "../contracts/agent-tree";
import { isSealed, sealSecret, unsealSecret } from "./sealed";

/** `llm_args` keys that carry credentials (e.g. a provider key passed per request). */
const SECRET_KEY = /(key|token|secret|password|authorization|credential)/i;

type Transform = (value: string) => string;

function mapMcp(config: McpConfig | null | undefined, f: Transform): McpConfig | null | undefined {
  if (!config) return config;
  return {
    ...config,
    ...(config.authorization_token ? { authorization_token: f(config.authorization_token) } : {}),
    ...(config.headers ? { headers: Object.fromEntries(Object.entries(config.headers).map(([k, v]) => [k, typeof v === "string" ? f(v) : v])) } : {}),
  };
}

function mapLlmArgs(args: Record<string, unknown> | null | undefined, f: Transform): Record<string, unknown> | null | undefined {
  if (!args) return args;
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, SECRET_KEY.test(k) && typeof v === "string" ? f(v) : v]));
}

/** Applies `f` to every secret of an agent spec (MCP tokens and headers, credential-like `llm_args`), handoffs included. */
function mapAgentSecrets(spec: AgentSpec, f: Transform): AgentSpec {
  return mapAgentTree(spec, (agent) => ({
    ...agent,
    ...(agent.mcp_config ? { mcp_config: mapMcp(agent.mcp_config, f) } : {}),
    ...(agent.mcp_configs ? { mcp_configs: { ...agent.mcp_configs, connections: agent.mcp_configs.connections.map((c) => mapMcp(c, f)!) } } : {}),
    ...(agent.llm_args ? { llm_args: mapLlmArgs(agent.llm_args, f) } : {}),
  }));
}

/**
 * An agent spec with its secrets encrypted, fit to be stored in Postgres (and shown back by job
 * and log reads) without any credential in clear text. Only the worker that uses them decrypts.
 */
export function sealAgentSecrets(spec: AgentSpec): AgentSpec {
  return mapAgentSecrets(spec, sealSecret);
}

/** An MCP server config with its token and headers decrypted, just before connecting. */
export function unsealMcpConfig(config: McpConfig): McpConfig {
  return mapMcp(config, unsealSecret)!;
}

/** `llm_args` with any sealed value decrypted, just before it goes to the provider. */
export function unsealLlmArgs(args: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args ?? {}).map(([k, v]) => [k, typeof v === "string" ? unsealSecret(v) : v]));
}

/**
 * The agent with its marketplace prompt readable again, handoffs included. The API stores a
 * marketplace prompt's text sealed in `system_prompt` (and only then sets `marketplace_prompt_id`),
 * so a paid prompt never shows in a stored request; the worker unseals it just before use.
 */
export function unsealMarketplacePrompts(spec: AgentSpec): AgentSpec {
  return mapAgentTree(spec, (agent) =>
    agent.marketplace_prompt_id && isSealed(agent.system_prompt) ? { ...agent, system_prompt: unsealSecret(agent.system_prompt) } : agent,
  );
}
