import { Agent, request } from "node:http";
import type { HttpTarget } from "./http-target";
import { summarizeLatencies, type LatencySummary } from "./stats";

/** Outcome of a sequential (concurrency 1) run. */
export interface SequentialResult {
  target: string;
  durationS: number;
  requests: number;
  requestsPerSec: number;
  latencyMs: LatencySummary;
  non2xx: number;
  errors: number;
  /** 2xx answers whose body failed the target's check. */
  badBodies: number;
  /** The first few problems seen, to say what went wrong. */
  problems: string[];
}

const REQUEST_TIMEOUT_MS = 30_000;
const MAX_PROBLEMS = 5;

interface Answer {
  status: number;
  body: string;
  ms: number;
}

function once(target: HttpTarget, url: URL, agent: Agent, payload: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      url,
      { method: target.method, agent, headers: { ...target.headers, "content-length": payload.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          // Stop the clock at the last byte, before anything the benchmark itself does with it.
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), ms });
        });
        res.on("error", reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/**
 * Sends `target` one request at a time for `durationS` seconds (or `maxRequests`) and measures each
 * with `process.hrtime.bigint()`. autocannon's latency histogram has 1 ms resolution, which cannot
 * tell 0.4 ms from 0.9 ms, so the concurrency-1 rows come from here.
 *
 * Plain `node:http` with one keep-alive socket rather than `fetch`: on the machine this was written
 * on, `fetch` added ~0.25 ms at p50 and ~3 ms at p99 per request, more than the simulator's whole
 * answer time (~0.15 ms), which would have hidden the figure being measured.
 */
export async function measureSequential(target: HttpTarget, durationS: number, maxRequests = Infinity): Promise<SequentialResult> {
  const url = new URL(target.url);
  const payload = Buffer.from(target.body);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let samples = new Float64Array(16_384);
  let count = 0;
  let non2xx = 0;
  let errors = 0;
  let badBodies = 0;
  const problems: string[] = [];
  const note = (problem: string) => problems.length < MAX_PROBLEMS && problems.push(problem);

  const started = performance.now();
  const deadline = started + durationS * 1_000;
  let sent = 0;
  try {
    while (performance.now() < deadline && sent < maxRequests) {
      sent++;
      let answer: Answer;
      try {
        answer = await once(target, url, agent, payload);
      } catch (err) {
        errors++;
        note(err instanceof Error ? err.message : String(err));
        continue;
      }
      if (answer.status < 200 || answer.status > 299) {
        non2xx++;
        note(`HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
        continue;
      }
      const bad = target.checkBody(answer.body);
      if (bad) {
        badBodies++;
        note(bad);
        continue;
      }
      if (count === samples.length) {
        const grown = new Float64Array(samples.length * 2);
        grown.set(samples);
        samples = grown;
      }
      samples[count++] = answer.ms;
    }
  } finally {
    agent.destroy();
  }
  const elapsedS = (performance.now() - started) / 1_000;
  return {
    target: target.name,
    durationS: elapsedS,
    requests: sent,
    requestsPerSec: sent / elapsedS,
    latencyMs: summarizeLatencies(samples.subarray(0, count)),
    non2xx,
    errors,
    badBodies,
    problems,
  };
}
