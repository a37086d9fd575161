import type { Harness } from "./harness";
import { request } from "./http";
import { entriesMentioning } from "./swarm";

/** Posts a reasoning agent (`POST /v1/reasoning-agent/completions`) and returns the response. */
export function postReasoning(h: Harness, key: string, body: unknown, headers: Record<string, string> = {}) {
  return request(h.baseUrl, "POST", "/v1/reasoning-agent/completions", { key, body, headers });
}

/** Simulator calls whose messages mention `marker`, in arrival order, with their arrival time (ms). */
export function timedCallsMentioning(h: Harness, marker: string): { at: number; body: any }[] {
  return entriesMentioning(h, marker).map((e: any) => ({ at: Date.parse(e.at), body: e.body }));
}

/** The system prompt of a call. */
export const systemOf = (body: any): string => String(body.messages[0]?.content ?? "");
