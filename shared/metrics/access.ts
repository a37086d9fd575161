import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

/** What a `/metrics` request gets: the metrics, or a refusal (its status says which). */
export type MetricsAccess = "allowed" | "unauthorized" | "forbidden" | "hidden";

export interface MetricsAccessPolicy {
  /** `METRICS_TOKEN`: when set, every scrape must send `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** In production, a web `/metrics` without a token configured does not exist (404). */
  production: boolean;
  /** A worker's metrics port: it exists in production too (loopback clients only, without a token). */
  internalPort: boolean;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  // Comparing digests keeps the time the same whatever the length sent.
  return timingSafeEqual(digest(match?.[1] ?? ""), digest(token)) && match !== null;
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return plain === "::1" || plain.startsWith("127.");
}

/**
 * Who may scrape: with `METRICS_TOKEN` set, whoever sends it (and nobody else). Without it, the web
 * `/metrics` does not exist in production (404), and otherwise only a client on this host that
 * connected directly may scrape: `remoteAddress` is the socket's, never a header a client could
 * write, and a request carrying forwarding headers came through a proxy, which makes every client
 * look local. A worker's port, which binds where `WORKER_METRICS_HOST` says, follows the same
 * loopback rule in production too, so binding it wider without a token exposes nothing.
 */
export function metricsAccess(
  policy: MetricsAccessPolicy,
  authorization: string | undefined,
  remoteAddress: string | undefined,
  forwarded = false,
): MetricsAccess {
  if (policy.token) return bearerMatches(authorization, policy.token) ? "allowed" : "unauthorized";
  if (policy.production && !policy.internalPort) return "hidden";
  return isLoopback(remoteAddress) && !forwarded ? "allowed" : "forbidden";
}

/** The HTTP answer to a refused scrape. */
export function refusalOf(access: Exclude<MetricsAccess, "allowed">): { status: number; message: string } {
  switch (access) {
    case "unauthorized":
      return { status: 401, message: "Metrics need Authorization: Bearer <METRICS_TOKEN>" };
    case "forbidden":
      return { status: 403, message: "Metrics answer loopback clients only unless METRICS_TOKEN is set" };
    case "hidden":
      return { status: 404, message: "Not Found" };
  }
}
