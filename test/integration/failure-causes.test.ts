import { expect } from "chai";
import type { AddressInfo } from "node:net";
import { createServer } from "node:http";
import { createApiApp } from "../../api/app";
import { webRegistry, workerRegistry } from "../../shared/metrics/registry";
import { createRedis } from "../../shared/queues/redis";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { captureLogs, type CapturedLogs } from "../helpers/log-capture";
import { counted } from "../helpers/metric-values";

/** pino's numeric levels. */
const WARN = 40;
const ERROR = 50;
const INFO = 30;

/**
 * Failures the caller caused (arguments its provider refused, a wait that ran out) are logged below
 * `error` and counted with `cause="caller"`; the service's own (a provider that stays down, Redis
 * gone) at `error` with `cause="service"`, so an error alert means "ours".
 */
describe("whose fault a failure is: logs and metrics", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  let logs: CapturedLogs;
  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
  });
  afterEach(() => logs?.stop());

  /** Sends an agent run whose one call the simulator fails with `status` every time; resolves with its run's lines. */
  async function failingRun(agentName: string, status: number) {
    logs = captureLogs();
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: { agent_name: agentName, llm_args: { sim_error: status } },
        task: `${agentName}-${Date.now()}`,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    expect(res.body).to.include({ code: "LLM_CALL_FAILED" });
    const [{ id: runId }] = await h.deps.ds.query(`SELECT id FROM runs WHERE job_id = $1`, [res.body.job_id]);
    const runFailed = await eventually(async () => logs.lines.find((l) => l.msg === "run failed" && l.runId === runId));
    const requestLine = logs.lines.find((l) => l.msg === "request" && l.path === "/v1/agent/completions");
    return { runFailed, requestLine };
  }

  it("a provider's 400 (arguments it refuses) is the caller's: run failed at warn, counted cause=caller", async () => {
    const series = [
      [workerRegistry, "apiary_llm_calls_total", { outcome: "error", cause: "caller" }],
      [workerRegistry, "apiary_runs_total", { kind: "agent", outcome: "failed", cause: "caller" }],
      // The web answers the failed run's 500 as `run`: the worker judged whose fault it was.
      [webRegistry, "apiary_http_requests_total", { route: "/v1/agent/completions", status: "500", cause: "run" }],
    ] as const;
    const before = await Promise.all(series.map(([registry, name, labels]) => counted(registry, name, labels)));
    const { runFailed, requestLine } = await failingRun("Refused", 400);
    expect(runFailed).to.include({ level: WARN, cause: "caller" });
    expect(requestLine).to.include({ level: WARN, status: 500, cause: "run" });
    expect(logs.lines.filter((l) => Number(l.level) >= ERROR)).to.deep.equal([]);
    const after = await Promise.all(series.map(([registry, name, labels]) => counted(registry, name, labels)));
    expect(after).to.deep.equal(before.map((n) => n + 1));
  });

  it("a provider that stays down (503 after the retries) is the service's: run failed at error, counted cause=service", async () => {
    const labels = { kind: "agent", swarm_type: "none", outcome: "failed", cause: "service" };
    const runsBefore = await counted(workerRegistry, "apiary_runs_total", labels);
    const callLabels = { outcome: "error", cause: "service" };
    const callsBefore = await counted(workerRegistry, "apiary_llm_calls_total", callLabels);
    const { runFailed } = await failingRun("Down", 503);
    expect(runFailed).to.include({ level: ERROR, cause: "service" });
    expect(await counted(workerRegistry, "apiary_runs_total", labels)).to.equal(runsBefore + 1);
    expect(await counted(workerRegistry, "apiary_llm_calls_total", callLabels)).to.equal(callsBefore + 1);
  });

  it("a caller's wait that ran out (504) is logged at info and counted cause=caller", async () => {
    const labels = { route: "/v1/agent/completions", method: "POST", status: "504", cause: "caller" };
    const before = await counted(webRegistry, "apiary_http_requests_total", labels);
    logs = captureLogs();
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      headers: { prefer: "wait=0.2" },
      body: { agent_config: { agent_name: "Slow", llm_args: { sim_latency_ms: 1_500 } }, task: `slow-${Date.now()}` },
    });
    expect(res.status).to.equal(504);
    const line = logs.lines.find((l) => l.msg === "request" && l.status === 504);
    expect(line).to.include({ level: INFO, code: "RUN_TIMEOUT", cause: "caller" });
    expect(await counted(webRegistry, "apiary_http_requests_total", labels)).to.equal(before + 1);
  });

  it("Redis gone (503) is the service's: logged at error and counted cause=service", async () => {
    // A Redis client pointed where nothing listens: the rate limiter's fail-fast client cannot answer.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const redis = createRedis("request", `redis://127.0.0.1:${port}/0`);
    const server = createServer(createApiApp({ ...h.deps, redis }, { bullBoard: false }).callback());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const labels = { route: "/v1/agent/completions", method: "POST", status: "503", cause: "service" };
    const before = await counted(webRegistry, "apiary_http_requests_total", labels);
    logs = captureLogs();
    try {
      const res = await request(url, "POST", "/v1/agent/completions", {
        key,
        body: { agent_config: { agent_name: "Unserved" }, task: "no Redis" },
      });
      expect(res.status).to.equal(503);
      const line = logs.lines.find((l) => l.msg === "request" && l.status === 503);
      expect(line).to.include({ level: ERROR, code: "SERVICE_UNAVAILABLE", cause: "service" });
      expect(await counted(webRegistry, "apiary_http_requests_total", labels)).to.equal(before + 1);
    } finally {
      redis.disconnect();
      server.close();
    }
  });
});
