import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { everyAgent } from "../../shared/contracts/agent-tree";
import { BadRequestError } from "../../shared/errors";
import { EgressRefusedError, egressPolicy } from "../../shared/net/egress";
import type { EgressPolicy } from "../../shared/net/egress-policy";
import { noteEgressRefusals } from "../../shared/net/egress-refusals";

/** A URL a request gives that something will connect to, and where it sits in the request. */
export interface RequestUrl {
  url: string;
  field: string;
}

/**
 * The http(s) image URLs of a request (`img`, `imgs`). The worker fetches them through the egress
 * policy (`imageForModel`) and the model server only ever gets their data; checking them here too
 * refuses a request with a refused address at once (400), before a run is stored and billed.
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
 * `specs`, handoffs included) or image URLs (`images`) the egress policy refuses: before any LLM
 * call, publication or stored run. Each field's message is the policy's, the same whatever the
 * reason (the operator's log has it). An MCP server whose name changes its answer later is still
 * refused when the worker connects, failing the run with the same code and message.
 */
export async function assertRequestEgress(
  specs: AgentSpec[],
  images: RequestUrl[],
  where?: (i: number) => string,
  policy: EgressPolicy = egressPolicy,
): Promise<void> {
  await assertUrlsAllowed([...mcpServerUrls(specs, where), ...images], policy);
}

/**
 * The 400 for every URL of `urls` the policy refuses, each checked once however many fields give it
 * (in parallel: the policy bounds its lookups in number and time).
 */
async function assertUrlsAllowed(urls: RequestUrl[], policy: EgressPolicy): Promise<void> {
  if (urls.length === 0) return;
  const distinct = [...new Set(urls.map((u) => u.url))];
  const refusals = new Map(
    await Promise.all(distinct.map(async (url) => [url, await refusalOf(url, policy)] as const)),
  );
  const problems = urls.flatMap(({ url, field }) => {
    const refusal = refusals.get(url);
    return refusal ? [`${field}: ${refusal.message}`] : [];
  });
  if (problems.length === 0) return;
  noteEgressRefusals(
    "request",
    [...refusals.values()].filter((r) => r !== null),
  );
  throw new BadRequestError(problems.join("; "), {}, "EGRESS_REFUSED");
}

/** The policy's refusal of `url`, or null when it allows it. */
async function refusalOf(url: string, policy: EgressPolicy): Promise<EgressRefusedError | null> {
  try {
    await policy.check(url);
    return null;
  } catch (err) {
    if (err instanceof EgressRefusedError) return err;
    throw err;
  }
}
