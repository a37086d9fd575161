import type { AgentSpec, McpConfig } from "../contracts/agent-spec";
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
  return {
    ...spec,
    ...(spec.mcp_config ? { mcp_config: mapMcp(spec.mcp_config, f) } : {}),
    ...(spec.mcp_configs ? { mcp_configs: { ...spec.mcp_configs, connections: spec.mcp_configs.connections.map((c) => mapMcp(c, f)!) } } : {}),
    ...(spec.llm_args ? { llm_args: mapLlmArgs(spec.llm_args, f) } : {}),
    ...(spec.handoffs ? { handoffs: (spec.handoffs as AgentSpec[]).map((h) => mapAgentSecrets(h, f)) } : {}),
  };
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
  return {
    ...spec,
    ...(spec.marketplace_prompt_id && isSealed(spec.system_prompt) ? { system_prompt: unsealSecret(spec.system_prompt) } : {}),
    ...(spec.handoffs ? { handoffs: (spec.handoffs as AgentSpec[]).map(unsealMarketplacePrompts) } : {}),
  };
}
