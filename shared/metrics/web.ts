import { Counter, Histogram } from "prom-client";
import { PREFIX, webRegistry, workerRegistry } from "./registry";

const registers = [webRegistry];

/**
 * Requests answered by the execution API, by route template (never the raw path), method, status
 * and, for an error answer, `cause` (`caller`, `service`, or `run`: a failed run's answer).
 */
export const httpRequests = new Counter({
  name: `${PREFIX}http_requests_total`,
  help: "Requests answered by the execution API, by route template, method, status and, for an error answer, cause: caller (the request's own doing), service (ours), run (a failed run's answer; its cause is counted by apiary_runs_total)",
  labelNames: ["route", "method", "status", "cause"] as const,
  registers,
});

/** How long the execution API took to hand over its answer (for a stream: until the stream starts). */
export const httpDuration = new Histogram({
  name: `${PREFIX}http_request_duration_seconds`,
  help: "Time until the execution API hands over its answer (a stream: until it starts), by route template",
  labelNames: ["route"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers,
});

/**
 * Why a request was refused with 429: its key's window, its account's window, its account's spend
 * of the day, or a key this process saw used up (refused before its body was read).
 */
export type RateLimitReason =
  "key_window" | "account_window" | "daily_spend" | "exhausted_key" | "key_open_requests" | "account_open_requests";

const rateLimitRefusals = new Counter({
  name: `${PREFIX}rate_limit_refusals_total`,
  help: "Requests refused with 429, by reason: key_window, account_window, daily_spend, exhausted_key, key_open_requests, account_open_requests",
  labelNames: ["reason"] as const,
  registers,
});

export function countRateLimitRefusal(reason: RateLimitReason): void {
  rateLimitRefusals.inc({ reason });
}

/** Where an address was refused: a request's URL at the door, or a connection a worker was about to open. */
type EgressWhere = "request" | "connection";

const egressRefusals = new Counter({
  name: `${PREFIX}egress_refusals_total`,
  help: "URLs the egress policy refused: in a request at the door (where=request) or when connecting (where=connection)",
  labelNames: ["where"] as const,
  // Requests are refused by the web process, connections mostly by workers.
  registers: [webRegistry, workerRegistry],
});

export function countEgressRefusal(where: EgressWhere): void {
  egressRefusals.inc({ where });
}
