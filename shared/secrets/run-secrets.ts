import type { AgentSpec, McpConfig } from "../contracts/agent-spec";
import { seal, unseal, type SealPurpose } from "./sealed";

/**
 * A run's secrets never sit in its stored request, which clients read back (job reads, logs,
 * streams). The API takes them out of the request, leaving this marker where each one was, and
 * stores them sealed in the run's own `sealed_secrets`, bound to the run, its owner and the field.
 * The worker puts them back just before use. Nothing a client sends is ever decrypted: the only
 * values opened are the ones the API itself sealed into `sealed_secrets`.
 */
export const REDACTED = "[redacted]";

/** Where a value sits in a request: object keys and array indexes, from the top. */
type RequestPath = (string | number)[];

/** A secret taken out of a request, still in clear (only in the API's memory, until it is sealed). */
export interface WithheldSecret {
  path: RequestPath;
  purpose: SealPurpose;
  plain: string;
}

/** A secret as `runs.sealed_secrets` stores it. */
export interface StoredSecret {
  path: RequestPath;
  purpose: SealPurpose;
  sealed: string;
}

/** A request fit to store and show, and the secrets taken out of it. */
export interface SplitRequest<T> {
  request: T;
  secrets: WithheldSecret[];
}

/**
 * Names of `llm_args` fields (at any depth) whose values are credentials: a token under a `metadata`
 * label today (the allow-list refuses a provider key in `llm_args`), and the provider keys of runs
 * stored before it did.
 */
const CREDENTIAL_NAME = /(key|token|secret|password|passwd|auth|credential|cookie|session|signature|header)/i;

/** Collects secrets as a request is walked, replacing each with the marker. */
class Withholder {
  readonly secrets: WithheldSecret[] = [];

  take(path: RequestPath, purpose: SealPurpose, plain: string): string {
    this.secrets.push({ path, purpose, plain });
    return REDACTED;
  }

  /** Every string under a credential-like name in `value` (objects and arrays walked), withheld. */
  credentials(value: unknown, path: RequestPath, secret: boolean): unknown {
    if (typeof value === "string") return secret ? this.take(path, "agent-credential", value) : value;
    if (Array.isArray(value)) return value.map((item, i) => this.credentials(item, [...path, i], secret));
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          k,
          this.credentials(v, [...path, k], secret || CREDENTIAL_NAME.test(k)),
        ]),
      );
    }
    return value;
  }

  mcp(config: McpConfig, path: RequestPath): McpConfig {
    return {
      ...config,
      ...(config.authorization_token
        ? {
            authorization_token: this.take(
              [...path, "authorization_token"],
              "agent-credential",
              config.authorization_token,
            ),
          }
        : {}),
      ...(config.headers
        ? { headers: this.credentials(config.headers, [...path, "headers"], true) as Record<string, string> }
        : {}),
    };
  }

  /** An agent and its handoffs: MCP tokens and headers, credential-like `llm_args`, and an applied marketplace prompt's text. */
  agent(spec: AgentSpec, path: RequestPath): AgentSpec {
    const out: AgentSpec = { ...spec };
    if (spec.marketplace_prompt_id?.trim() && typeof spec.system_prompt === "string") {
      out.system_prompt = this.take([...path, "system_prompt"], "marketplace-prompt", spec.system_prompt);
    }
    if (spec.llm_args)
      out.llm_args = this.credentials(spec.llm_args, [...path, "llm_args"], false) as Record<string, unknown>;
    if (spec.mcp_config) out.mcp_config = this.mcp(spec.mcp_config, [...path, "mcp_config"]);
    if (spec.mcp_configs?.connections) {
      out.mcp_configs = {
        ...spec.mcp_configs,
        connections: spec.mcp_configs.connections.map((c, i) =>
          this.mcp(c, [...path, "mcp_configs", "connections", i]),
        ),
      };
    }
    if (Array.isArray(spec.handoffs))
      out.handoffs = (spec.handoffs as AgentSpec[]).map((h, i) => this.agent(h, [...path, "handoffs", i]));
    return out;
  }
}

/** An agent request (`agent_config`) with its secrets taken out. */
export function withholdAgentSecrets<T extends { agent_config: AgentSpec }>(request: T): SplitRequest<T> {
  const w = new Withholder();
  return { request: { ...request, agent_config: w.agent(request.agent_config, ["agent_config"]) }, secrets: w.secrets };
}

/**
 * The top-level fields of a request that are provider options like an agent's `llm_args`: a
 * reasoning agent's `llm_args`, HierarchicalSwarm's `director_settings` (added to the director's).
 * Their credential-like values are withheld as `llm_args`' are.
 */
const PROVIDER_OPTION_FIELDS = ["llm_args", "director_settings"] as const;

type ProviderOptionFields = { [F in (typeof PROVIDER_OPTION_FIELDS)[number]]?: object | null };

/** `request` with the credential-like values of its top-level provider options withheld into `w`. */
function withProviderOptionsWithheld<T extends ProviderOptionFields>(request: T, w: Withholder): T {
  const out = { ...request };
  for (const field of PROVIDER_OPTION_FIELDS) {
    const options = request[field];
    if (options && typeof options === "object") out[field] = w.credentials(options, [field], false) as T[typeof field];
  }
  return out;
}

/** A swarm request (`agents`, and its provider-option fields) with its secrets taken out. */
export function withholdSwarmSecrets<T extends { agents?: AgentSpec[] | null } & ProviderOptionFields>(
  request: T,
): SplitRequest<T> {
  const w = new Withholder();
  const withOptions = withProviderOptionsWithheld(request, w);
  const agents = request.agents?.map((a, i) => w.agent(a, ["agents", i]));
  return { request: agents ? { ...withOptions, agents } : withOptions, secrets: w.secrets };
}

/** Whose run a secret belongs to: part of every sealed value's binding. */
export interface RunOwnership {
  runId: string;
  userId: string | null;
}

function bindingOf(secret: { path: RequestPath; purpose: SealPurpose }, run: RunOwnership) {
  return { purpose: secret.purpose, run: run.runId, user: run.userId ?? "", at: JSON.stringify(secret.path) };
}

/** The withheld secrets sealed for `runs.sealed_secrets` (null when there are none). */
export function sealRunSecrets(secrets: WithheldSecret[], run: RunOwnership): StoredSecret[] | null {
  if (secrets.length === 0) return null;
  return secrets.map((s) => ({ path: s.path, purpose: s.purpose, sealed: seal(s.plain, bindingOf(s, run)) }));
}

/**
 * The stored request with its sealed secrets back in place, for the worker that runs it. Only the
 * run's own `sealed_secrets` are opened, each with the binding it was sealed with; the request
 * itself is client data and nothing in it is decrypted.
 */
export function revealRunSecrets<T>(run: RunOwnership & { request: T; sealed_secrets?: StoredSecret[] | null }): T {
  if (!run.sealed_secrets?.length) return run.request;
  const request = structuredClone(run.request) as Record<string | number, unknown>;
  for (const secret of run.sealed_secrets) {
    const parent = secret.path
      .slice(0, -1)
      .reduce<unknown>((node, step) => (node as Record<string | number, unknown> | undefined)?.[step], request);
    const field = secret.path[secret.path.length - 1];
    // The marker must still be where the secret was taken from; anything else means the row was altered.
    if (!parent || typeof parent !== "object" || (parent as Record<string | number, unknown>)[field] !== REDACTED)
      continue;
    (parent as Record<string | number, unknown>)[field] = unseal(secret.sealed, bindingOf(secret, run));
  }
  return request as T;
}

/** A stored run's request with its sealed secrets put back, for the worker that executes it. */
export function revealedRequest<T>(run: {
  id: string;
  user_id: string | null;
  request: T;
  sealed_secrets: StoredSecret[] | null;
}): T {
  return revealRunSecrets({
    runId: run.id,
    userId: run.user_id,
    request: run.request,
    sealed_secrets: run.sealed_secrets,
  });
}

/** A request whose only secrets are credential-like values of its top-level provider options (a reasoning agent's). */
export function withholdLlmArgsSecrets<T extends ProviderOptionFields>(request: T): SplitRequest<T> {
  const w = new Withholder();
  return { request: withProviderOptionsWithheld(request, w), secrets: w.secrets };
}
