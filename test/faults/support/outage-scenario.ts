import { expect } from "chai";
import { jsonRequest } from "../../../scripts/bench/client/json-request";
import { eventually } from "../../helpers/http";
import { agentBody, markers, sendAgentRequest } from "./agent-load";
import type { FaultStack } from "./fault-stack";
import { expectEveryRunSucceededOnce, untilRunsInFlight } from "./run-audit";

/** The longest a refusal may take while a backing service is down. */
const QUICK_MS = 1_500;

/**
 * What clients see while Postgres or Redis is down: `/health` and a new agent completion request both answer
 * 503 at once, the request with the `/v1` error body.
 */
async function expectQuick503s(apiUrl: string, key: string, what: string): Promise<void> {
  const health = await jsonRequest("GET", `${apiUrl}/health`, { timeoutMs: 10_000 });
  expect(health.status, `health while ${what} is down: ${health.text}`).to.equal(503);
  expect(health.ms, "health answer time (ms)").to.be.below(QUICK_MS);
  expect(health.json).to.deep.include({ code: "SERVICE_UNAVAILABLE", status_code: 503 });

  const posts = await Promise.all(
    [0, 1, 2].map((i) =>
      jsonRequest("POST", `${apiUrl}/v1/agent/completions`, {
        apiKey: key,
        body: agentBody({ marker: `during-outage-${what}-${i}` }),
        timeoutMs: 10_000,
      }),
    ),
  );
  for (const post of posts) {
    expect(post.status, `POST while ${what} is down: ${post.text}`).to.equal(503);
    expect(post.ms, "POST answer time (ms)").to.be.below(QUICK_MS);
    expect(post.json).to.have.keys("detail", "code", "status_code");
    expect(post.json).to.deep.include({ code: "SERVICE_UNAVAILABLE", status_code: 503 });
    expect(String((post.json as { detail: unknown }).detail)).to.not.match(/\n\s+at /); // no stack trace
  }
}

/**
 * Keeps a backing service down for `outageMs` (longer than a worker's job lock, so in-flight jobs
 * lose their locks), checking throughout that clients get quick 503s. The outage length is the
 * scenario, not a wait for work to finish.
 */
async function holdOutage(outageMs: number, apiUrl: string, key: string, what: string): Promise<void> {
  const until = Date.now() + outageMs;
  do await expectQuick503s(apiUrl, key, what);
  while (Date.now() < until);
}

/** Waits until `/health` answers 200 again, with nothing restarted but the backing service. */
async function expectRecovery(apiUrl: string, timeoutMs = 30_000): Promise<void> {
  await eventually(
    async () => {
      const health = await jsonRequest("GET", `${apiUrl}/health`, { timeoutMs: 5_000 }).catch(() => null);
      return health?.status === 200 ? true : undefined;
    },
    timeoutMs,
    100,
  );
}

/** A backing service the test takes away and brings back. */
export interface Outage {
  name: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * The outage scenario shared by Redis and Postgres: twenty runs of five 1.2 s LLM calls each are
 * in flight when the service goes away for three seconds (longer than a job lock). Meanwhile the
 * API must refuse quickly with 503; once the service is back it must recover by itself, take new
 * requests, and finish every run of the load exactly once.
 */
export async function expectOutageRiddenOut(stack: FaultStack, outage: Outage): Promise<void> {
  const specs = markers(outage.name.toLowerCase(), 20).map((marker) => ({ marker, maxLoops: 5, latencyMs: 1_200 }));
  const load = Promise.all(specs.map((spec) => sendAgentRequest(stack.apiUrl, stack.key, spec)));
  await untilRunsInFlight(stack.ds, 5);

  await outage.stop();
  await holdOutage(3_000, stack.apiUrl, stack.key, outage.name);
  await outage.start();
  await expectRecovery(stack.apiUrl);

  const after = await sendAgentRequest(stack.apiUrl, stack.key, { marker: markers(`after-${outage.name}`, 1)[0] });
  expect(after.status, `a request after ${outage.name} came back: ${JSON.stringify(after.body)}`).to.equal(200);
  await expectEveryRunSucceededOnce(stack, await load);
}
