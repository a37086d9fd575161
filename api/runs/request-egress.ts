import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { everyAgent } from "../../shared/contracts/agent-tree";
import { BadRequestError } from "../../shared/errors";
import { countEgressRefusal } from "../../shared/metrics/web";
import { EgressRefusedError, egressPolicy } from "../../shared/net/egress";
import type { EgressPolicy } from "../../shared/net/egress-policy";

/** A URL a request gives that something will connect to, and where it sits in the request. */
export interface RequestUrl {
  url: string;
  field: string;
}

/**
 * The http(s) image URLs of a request (`img`, `imgs`). The service never fetches them itself, but
 * the model server does: behind a gateway (`LLM_BASE_URL`) or a local model server that server sits
 * in the operator's network, so the same policy applies to them as to MCP servers (checked here,
 * when the request arrives; the connection is the model server's).
 */
export function imageUrls(request: { img?: string | null; imgs?: string[] | null }, at = ""): RequestUrl[] {
  const prefix = at ? `${at}.` : "";
  const images = [
    { url: request.img, field: `${prefix}img` },
    ...(request.imgs ?? []).map((url, i) => ({ url, field: `${prefix}imgs[${i}]` })),
  ];
  return images.flatMap(({ url, field }) =>
    typeof url === "string" && /^https?:/i.test(url.trim()) ? [{ url: url.trim(), field }] : [],
  );
}

/** Every MCP server URL of the agents (handoffs included), with where it sits in the request. */
function mcpServerUrls(specs: AgentSpec[], where?: (i: number) => string): RequestUrl[] {
  return everyAgent(specs, where).flatMap(({ spec, where: at }) => {
    const urls: { url: unknown; field: string }[] = [
      { url: spec.mcp_url, field: `${at}.mcp_url` },
      { url: spec.mcp_config?.url, field: `${at}.mcp_config.url` },
      ...(spec.mcp_configs?.connections ?? []).map((c, i) => ({
        url: c?.url,
        field: `${at}.mcp_configs.connections[${i}].url`,
      })),
    ];
    // The worker trims the URL and skips a blank one (`collectMcpServers`); so does this check.
    return urls.flatMap(({ url, field }) =>
      typeof url === "string" && url.trim() ? [{ url: url.trim(), field }] : [],
    );
  });
}

/**
 * Refuses, with a 400 `EGRESS_REFUSED` naming each refused field, a request whose MCP servers (of
 * `specs`, handoffs included) or image URLs (`images`) the egress policy refuses as far as can be
 * told now (literal addresses, and names resolved here): before any LLM call, publication or
 * stored run. An MCP server whose name changes its answer later is still refused when the worker
 * connects, failing the run with the same code.
 */
export async function assertRequestEgress(
  specs: AgentSpec[],
  images: RequestUrl[],
  where?: (i: number) => string,
  policy: EgressPolicy = egressPolicy,
): Promise<void> {
  const servers = [...mcpServerUrls(specs, where), ...images];
  if (servers.length === 0) return;
  const urls = [...new Set(servers.map((s) => s.url))];
  const reasons = new Map(await Promise.all(urls.map(async (url) => [url, await refusalOf(url, policy)] as const)));
  const problems = servers.flatMap(({ url, field }) => (reasons.get(url) ? [`${field}: ${reasons.get(url)}`] : []));
  if (problems.length) {
    countEgressRefusal("request");
    throw new BadRequestError(problems.join("; "), {}, "EGRESS_REFUSED");
  }
}

/** Why the policy refuses `url`, or null when it does not. */
async function refusalOf(url: string, policy: EgressPolicy): Promise<string | null> {
  try {
    await policy.check(url);
    return null;
  } catch (err) {
    if (err instanceof EgressRefusedError) return err.message;
    throw err;
  }
}
