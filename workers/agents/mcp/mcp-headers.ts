import type { McpConfig } from "../../../shared/contracts/agent-spec";

/** The value clients copy from documentation templates; sending it would only earn a 401. */
const PLACEHOLDER_TOKEN = "<AUTH_TOKEN>";

/** The config's bearer token, or null when there is none (absent, blank or the template placeholder). */
export function bearerToken(config: McpConfig): string | null {
  const token = config.authorization_token?.trim();
  return token && token !== PLACEHOLDER_TOKEN ? token : null;
}

/**
 * The HTTP headers every request to the server carries: the config's `headers`, plus
 * `Authorization: Bearer <token>` when a token is given. The token replaces any Authorization
 * header in `headers` (whatever its case) so the server never sees two.
 */
export function mcpRequestHeaders(config: McpConfig): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(config.headers ?? {})) if (typeof value === "string") headers[key] = value;
  const token = bearerToken(config);
  if (token) {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === "authorization") delete headers[key];
    headers.Authorization = `Bearer ${token}`;
  }
  return headers;
}

/** Values that must never appear in text shown to the model, logs or run errors. */
export function mcpSecrets(config: McpConfig): string[] {
  const secrets = Object.values(mcpRequestHeaders(config));
  const token = bearerToken(config);
  if (token) secrets.push(token);
  return secrets.filter((s) => s.length > 0);
}
