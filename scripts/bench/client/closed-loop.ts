import { Agent, request } from "node:http";
import { summarizeLatencies, type LatencySummary } from "../report/stats";
import type { HttpTarget } from "./http-target";

/** Outcome of a closed-loop run (sequential when its concurrency is 1). */
export interface SequentialResult {
  target: string;
  durationS: number;
  /** Operations sent, and per second (an operation is `fanOut` requests). */
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

/** One answer and its time from sending to the last byte, in ms. */
export interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** Sends `target`'s request once over `agent`; rejects on a connection error or after `timeoutMs`. */
export function timedRequest(
  target: HttpTarget,
  url: URL,
  agent: Agent,
  payload: Buffer,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Answer> {
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
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** What is wrong with an answer: a non-2xx status, or a 2xx body that fails the target's check; null when fine. */
export function answerProblem(
  target: HttpTarget,
  answer: Answer,
): { kind: "non2xx" | "badBody"; message: string } | null {
  if (answer.status < 200 || answer.status > 299)
    return { kind: "non2xx", message: `HTTP ${answer.status}: ${answer.body.slice(0, 300)}` };
  const bad = target.checkBody(answer.body);
  return bad ? { kind: "badBody", message: bad } : null;
}

/** One operation: `fanOut` copies of the request at once; ends with the slowest answer. */
async function operation(target: HttpTarget, url: URL, agent: Agent, payload: Buffer): Promise<Answer> {
  const fanOut = target.fanOut ?? 1;
  if (fanOut === 1) return timedRequest(target, url, agent, payload);
  const answers = await Promise.all(Array.from({ length: fanOut }, () => timedRequest(target, url, agent, payload)));
  // Every copy started at the same moment, so the slowest one's time is the operation's.
  const slowest = answers.reduce((a, b) => (b.ms > a.ms ? b : a));
  const failed = answers.find((a) => answerProblem(target, a));
  return failed ? { ...failed, ms: slowest.ms } : slowest;
}

/**
 * Keeps `concurrency` operations in flight for `durationS` seconds (or until `maxRequests` were
 * sent), each loop sending its next request as soon as its previous answer is in, and measures
 * every operation with `process.hrtime.bigint()`. With several `targets`, loop i sends to
 * targets[i % n] (e.g. two web processes on different ports). Every operation in flight at the
 * deadline is awaited, so none is left running in the service when this returns.
 *
 * autocannon's latency histogram has 1 ms resolution, which cannot tell 0.4 ms from 0.9 ms, and
 * it cannot fan one operation out into parallel requests; hence this client.
 *
 * Plain `node:http` with keep-alive sockets rather than `fetch`: on the machine this was written
 * on, `fetch` added ~0.25 ms at p50 and ~3 ms at p99 per request, more than the simulator's whole
 * answer time (~0.15 ms), which would have hidden the figure being measured.
 */
export async function measureClosedLoop(
  targets: HttpTarget[],
  concurrency: number,
  durationS: number,
  maxRequests = Infinity,
): Promise<SequentialResult> {
  const prepared = targets.map((target) => ({
    target,
    url: new URL(target.url),
    payload: Buffer.from(target.body),
    agent: new Agent({ keepAlive: true, maxSockets: concurrency * (target.fanOut ?? 1) }),
  }));
  let samples = new Float64Array(16_384);
  let count = 0;
  let non2xx = 0;
  let errors = 0;
  let badBodies = 0;
  const problems: string[] = [];
  const note = (problem: string) => problems.length < MAX_PROBLEMS && problems.push(problem);
  const record = (ms: number) => {
    if (count === samples.length) {
      const grown = new Float64Array(samples.length * 2);
      grown.set(samples);
      samples = grown;
    }
    samples[count++] = ms;
  };

  const started = performance.now();
  const deadline = started + durationS * 1_000;
  let sent = 0;
  const loop = async (i: number) => {
    const { target, url, agent, payload } = prepared[i % prepared.length];
    while (performance.now() < deadline && sent < maxRequests) {
      sent++;
      let answer: Answer;
      try {
        answer = await operation(target, url, agent, payload);
      } catch (err) {
        errors++;
        note(err instanceof Error ? err.message : String(err));
        continue;
      }
      const problem = answerProblem(target, answer);
      if (problem) {
        if (problem.kind === "non2xx") non2xx++;
        else badBodies++;
        note(problem.message);
        continue;
      }
      record(answer.ms);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, (_, i) => loop(i)));
  } finally {
    for (const p of prepared) p.agent.destroy();
  }
  const elapsedS = (performance.now() - started) / 1_000;
  return {
    target: targets.map((t) => t.name).join("+"),
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

/** `measureClosedLoop` with one request at a time: the concurrency-1 latency of `target`. */
export function measureSequential(
  target: HttpTarget,
  durationS: number,
  maxRequests = Infinity,
): Promise<SequentialResult> {
  return measureClosedLoop([target], 1, durationS, maxRequests);
}
