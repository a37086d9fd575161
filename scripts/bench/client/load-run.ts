import autocannon from "autocannon";
import type { HttpTarget } from "./http-target";

/** The numbers kept from one autocannon run. */
export interface LoadResult {
  target: string;
  connections: number;
  durationS: number;
  /** Mean of autocannon's per-second samples (what its own report calls Req/Sec avg). */
  requestsPerSec: number;
  /** Completed requests divided by the run time, a cross-check of the above. */
  completedPerSec: number;
  completed: number;
  /** 2xx answers per second: unlike the two above, failed requests do not inflate it. */
  okPerSec: number;
  /** Latency in ms; autocannon records whole milliseconds. */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  /** Connection errors and timeouts (autocannon counts a timeout as an error too). */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** Drives `target` with `connections` concurrent keep-alive connections for `durationS` seconds. */
export async function runLoad(target: HttpTarget, connections: number, durationS: number): Promise<LoadResult> {
  const r = await autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections,
    duration: durationS,
    timeout: 30,
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = count;
  return {
    target: target.name,
    connections,
    durationS: r.duration,
    requestsPerSec: r.requests.average,
    completedPerSec: r.requests.total / r.duration,
    completed: r.requests.total,
    okPerSec: r["2xx"] / r.duration,
    latencyMs: { mean: r.latency.mean, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
  };
}
