import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiApp } from "../../api/app";
import { startWorkerMetricsServer, type WorkerMetricsServer } from "../../workers/metrics-server";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";

/** One sample of Prometheus text: its metric name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseSamples(text: string): Sample[] {
  return text.split("\n").flatMap((line) => {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) return [];
    const labels = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    return [{ name: match[1], labels, value: Number(match[3]) }];
  });
}

/** The value of the sample named `name` whose labels include `labels` (0 when there is none). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await fetch(`${url}/metrics`, { headers });
  expect(res.status, `${url}/metrics`).to.equal(200);
  expect(res.headers.get("content-type")).to.match(/^text\/plain/);
  return parseSamples(await res.text());
}

async function serve(app: {
  callback(): Parameters<typeof createServer>[1];
}): Promise<{ url: string; server: Server }> {
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("Prometheus metrics (/metrics on the web process and on each worker's port)", () => {
  let h: Harness;
  let key: string;
  let worker: WorkerMetricsServer;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    worker = await startWorkerMetricsServer(() => h.workers, h.deps.ds, { port: 0, host: "127.0.0.1" });
  });

  after(() => worker?.close());

  it("counts one agent run and one swarm run: requests by route, LLM calls, tokens, cost and run durations move", async () => {
    const webBefore = await scrape(h.baseUrl);
    const workerBefore = await scrape(worker.url);
    const agentRoute = { route: "/v1/agent/completions", method: "POST", status: "200" };
    const swarmRoute = { route: "/v1/swarm/completions", method: "POST", status: "200" };
    const agentRun = { kind: "agent", swarm_type: "none" };
    const swarmRun = { kind: "swarm", swarm_type: "SequentialWorkflow" };

    const agent = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: { agent_name: "Counter", model_name: "mistral-small-latest" },
        task: "Name one use of honey.",
      },
    });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    const swarm = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key,
      body: {
        swarm_type: "SequentialWorkflow",
        task: "Home batteries",
        agents: [
          { agent_name: "Researcher", model_name: "mistral-small-latest" },
          { agent_name: "Writer", model_name: "mistral-small-latest" },
        ],
      },
    });
    expect(swarm.status, JSON.stringify(swarm.body)).to.equal(200);

    const web = await scrape(h.baseUrl);
    expect(
      valueOf(web, "apiary_http_requests_total", agentRoute) -
        valueOf(webBefore, "apiary_http_requests_total", agentRoute),
    ).to.equal(1);
    expect(
      valueOf(web, "apiary_http_requests_total", swarmRoute) -
        valueOf(webBefore, "apiary_http_requests_total", swarmRoute),
    ).to.equal(1);
    const agentLatency = { route: agentRoute.route };
    expect(
      valueOf(web, "apiary_http_request_duration_seconds_count", agentLatency) -
        valueOf(webBefore, "apiary_http_request_duration_seconds_count", agentLatency),
    ).to.equal(1);
    for (const state of ["waiting", "active", "delayed", "failed"])
      expect(
        web.some((s) => s.name === "apiary_queue_jobs" && s.labels.queue === "agent" && s.labels.state === state),
        state,
      ).to.equal(true);
    expect(
      web.some((s) => s.name === "apiary_process_cpu_seconds_total"),
      "Node process metrics",
    ).to.equal(true);

    // The run's counters move before the worker announces the run; the scrape waits only for the
    // announcement's race with the API's slow poll.
    const after = await eventually(async () => {
      const samples = await scrape(worker.url);
      const runs = (labels: Record<string, string>) =>
        valueOf(samples, "apiary_runs_total", { ...labels, outcome: "succeeded" }) -
        valueOf(workerBefore, "apiary_runs_total", { ...labels, outcome: "succeeded" });
      return runs(agentRun) >= 1 && runs(swarmRun) >= 1 ? samples : undefined;
    });
    const moved = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(workerBefore, name, labels);
    // Every run counted is timed (runs of other tests still ending may add to both).
    for (const labels of [agentRun, swarmRun])
      expect(moved("apiary_run_duration_seconds_count", labels)).to.equal(moved("apiary_runs_total", labels));
    // One call for the agent, one per swarm agent; the test's LLM is the simulator behind LLM_BASE_URL.
    const llm = { provider: "gateway", model: "mistral-small-latest" };
    expect(moved("apiary_llm_calls_total", { ...llm, outcome: "ok" })).to.equal(3);
    expect(moved("apiary_llm_call_duration_seconds_count", llm)).to.equal(3);
    const usage = agent.body.usage;
    expect(moved("apiary_llm_tokens_total", { ...llm, direction: "input" })).to.be.at.least(usage.input_tokens);
    expect(moved("apiary_llm_tokens_total", { ...llm, direction: "output" })).to.be.at.least(usage.output_tokens);
    expect(moved("apiary_llm_cost_usd_total", llm)).to.be.greaterThan(0);
  });

  it("counts a request refused by the egress policy, and a run stopped by its token budget (and failed)", async () => {
    const webBefore = await scrape(h.baseUrl);
    const workerBefore = await scrape(worker.url);
    const refused = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Tools", mcp_url: "http://10.11.12.13/mcp" }, task: "Use the tools." },
    });
    expect(refused.body).to.include({ code: "EGRESS_REFUSED" });
    const web = await scrape(h.baseUrl);
    const where = { where: "request" };
    expect(
      valueOf(web, "apiary_egress_refusals_total", where) - valueOf(webBefore, "apiary_egress_refusals_total", where),
    ).to.equal(1);

    const stopped = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Spender", max_loops: 5 }, task: "spend", budget: { max_tokens: 60 } },
    });
    expect(stopped.status).to.equal(500);
    // The stop is counted with the run's failure, just before the worker announces it.
    const tokens = { kind: "tokens" };
    await eventually(async () => {
      const samples = await scrape(worker.url);
      const stops =
        valueOf(samples, "apiary_budget_stops_total", tokens) -
        valueOf(workerBefore, "apiary_budget_stops_total", tokens);
      return stops >= 1 ? stops : undefined;
    }, 5_000);
  });

  it("names the route template, never the raw path: random ids and unknown paths add no label values", async () => {
    const routesOf = async () =>
      new Set(
        (await scrape(h.baseUrl)).filter((s) => s.name === "apiary_http_requests_total").map((s) => s.labels.route),
      );
    await request(h.baseUrl, "GET", `/v1/jobs/${randomUUID()}`, { key });
    await request(h.baseUrl, "GET", `/no-such-page/${randomUUID()}`);
    const before = await routesOf();
    expect(before).to.include("/v1/jobs/:job_id").and.to.include("unmatched");

    const ids = Array.from({ length: 5 }, () => randomUUID());
    for (const id of ids) {
      expect((await request(h.baseUrl, "GET", `/v1/jobs/${id}`, { key })).status).to.equal(404);
      // Refused before the router runs (no key): still counted under the route it names.
      expect((await request(h.baseUrl, "GET", `/v1/jobs/${id}`)).status).to.equal(401);
      await request(h.baseUrl, "GET", `/no-such-page/${id}?q=${id}`);
      await request(h.baseUrl, "POST", `/v1/${id}`, { key, body: {} });
    }
    const after = await routesOf();
    expect([...after].filter((route) => !before.has(route))).to.deep.equal([]);
    for (const route of after) for (const id of ids) expect(route).not.to.include(id);
  });

  it("in production, refuses /metrics without METRICS_TOKEN (401) and serves it with; without a token set it does not exist (404)", async () => {
    const token = "metrics-token-of-some-length";
    const guarded = await serve(createApiApp(h.deps, { bullBoard: false, metrics: { token, production: true } }));
    const hidden = await serve(
      createApiApp(h.deps, { bullBoard: false, metrics: { token: undefined, production: true } }),
    );
    try {
      expect((await fetch(`${guarded.url}/metrics`)).status).to.equal(401);
      const wrong = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${token}x` } });
      expect(wrong.status).to.equal(401);
      const body = await wrong.text();
      expect(body).not.to.include(token);
      await scrape(guarded.url, { authorization: `Bearer ${token}` });
      expect((await fetch(`${hidden.url}/metrics`)).status).to.equal(404);
    } finally {
      for (const { server } of [guarded, hidden]) {
        server.closeAllConnections();
        server.close();
      }
    }
  });

  it("answers liveness on the worker's port, and requires METRICS_TOKEN there once it is set", async () => {
    const health = await fetch(`${worker.url}/health`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.deep.equal({ status: "ok", checks: { running: true, redis: true } });
    const token = "worker-metrics-token-of-some-length";
    const guarded = await startWorkerMetricsServer(() => h.workers, h.deps.ds, { port: 0, host: "127.0.0.1", token });
    try {
      expect((await fetch(`${guarded.url}/metrics`)).status).to.equal(401);
      await scrape(guarded.url, { authorization: `Bearer ${token}` });
      expect((await fetch(`${guarded.url}/health`)).status, "liveness needs no token").to.equal(200);
    } finally {
      await guarded.close();
    }
  });
});
