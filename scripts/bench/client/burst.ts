import { Agent } from "node:http";
import { summarizeLatencies, type LatencySummary } from "../report/stats";
import { answerProblem, timedRequest } from "./closed-loop";
import type { HttpTarget } from "./http-target";

/** Outcome of `count` requests sent at the same moment. */
export interface BurstResult {
  target: string;
  requests: number;
  /** 2xx answers whose body passed the target's check. */
  succeeded: number;
  non2xx: number;
  errors: number;
  badBodies: number;
  statusCodes: Record<string, number>;
  /** From sending the first request to the last answer (or failure), ms. */
  wallMs: number;
  /** Latency of the successful requests, ms. */
  latencyMs: LatencySummary;
  /** Each distinct problem (status and body, or error) with how often it happened, most frequent first. */
  problems: string[];
}

const MAX_DISTINCT_PROBLEMS = 20;

/**
 * Sends `count` copies of `target` at once, each on its own connection (no pool limit, so every
 * request is in flight together, as with that many separate clients), and waits for all answers.
 * `body(i)` may give each request its own body (distinct tasks); by default all send `target.body`.
 */
export async function sendBurst(
  target: HttpTarget,
  count: number,
  timeoutMs: number,
  body?: (i: number) => string,
): Promise<BurstResult> {
  const url = new URL(target.url);
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const samples = new Float64Array(count);
  let succeeded = 0;
  let non2xx = 0;
  let errors = 0;
  let badBodies = 0;
  const statusCodes: Record<string, number> = {};
  const seen = new Map<string, number>();
  // With thousands of requests, one line per distinct problem says more than the first few.
  const note = (p: string) => (seen.has(p) || seen.size < MAX_DISTINCT_PROBLEMS) && seen.set(p, (seen.get(p) ?? 0) + 1);

  const started = performance.now();
  const one = async (i: number) => {
    try {
      const answer = await timedRequest(target, url, agent, Buffer.from(body ? body(i) : target.body), timeoutMs);
      statusCodes[answer.status] = (statusCodes[answer.status] ?? 0) + 1;
      const problem = answerProblem(target, answer);
      if (problem) {
        if (problem.kind === "non2xx") non2xx++;
        else badBodies++;
        note(problem.message.slice(0, 200));
        return;
      }
      samples[succeeded++] = answer.ms;
    } catch (err) {
      errors++;
      note(err instanceof Error ? err.message : String(err));
    }
  };
  try {
    await Promise.all(Array.from({ length: count }, (_, i) => one(i)));
  } finally {
    agent.destroy();
  }
  return {
    target: target.name,
    requests: count,
    succeeded,
    non2xx,
    errors,
    badBodies,
    statusCodes,
    wallMs: performance.now() - started,
    latencyMs: summarizeLatencies(samples.subarray(0, succeeded)),
    problems: [...seen].sort((a, b) => b[1] - a[1]).map(([p, n]) => `${n} x ${p}`),
  };
}
