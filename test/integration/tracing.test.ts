import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { config } from "../../shared/config";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver";
import { ProcessDeployment, type WebProcess } from "../helpers/process-deployment";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

/**
 * OpenTelemetry tracing against a web process and a worker process started as the Procfile
 * starts them, exporting to a local OTLP/HTTP receiver. Each deployment has a queue prefix of its
 * own, so the harness's in-process workers (which do not trace) never take its jobs.
 */
const prefixFor = (name: string) => config.queue.prefix.replace("}", `-${name}}`);
const hex = (bytes: number) => randomBytes(bytes).toString("hex");

const LLM_STEP = "chat";
const isStepSpan = (s: ReceivedSpan) => s.attributes["gen_ai.operation.name"] !== undefined;

/** The spans of one run, found by its job id: the run's, its queue wait and its steps. */
function spansOfRun(spans: ReceivedSpan[], jobId: string) {
  const run = spans.find((s) => s.name.startsWith("run ") && s.attributes["apiary.job.id"] === jobId);
  const wait = spans.find((s) => s.name === "queue wait" && s.attributes["apiary.job.id"] === jobId);
  const steps = run ? spans.filter((s) => s.parentSpanId === run.spanId && isStepSpan(s)) : [];
  return { run, wait, steps };
}

/** The calls of `GET /v1/jobs/{id}/steps` (charges are not spans). */
async function callsOf(web: WebProcess, key: string, jobId: string) {
  const res = await request(web.url, "GET", `/v1/jobs/${jobId}/steps?limit=500`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return {
    body: res.body,
    calls: (res.body.steps as any[]).filter((s) => s.type === "llm" || s.type === "tool"),
  };
}

/** Each call of the steps endpoint has one step span saying the same, matched by agent, model and start. */
function expectStepsMatch(steps: ReceivedSpan[], calls: any[]) {
  expect(steps).to.have.length(calls.length);
  for (const call of calls) {
    const started = new Date(call.started_at).getTime();
    const model = call.type === "tool" ? "gen_ai.tool.name" : "gen_ai.request.model";
    const span = steps.find(
      (s) =>
        s.startMs === started && s.attributes["gen_ai.agent.name"] === call.agent && s.attributes[model] === call.model,
    );
    expect(span, `a span for ${JSON.stringify(call)}`).to.not.equal(undefined);
    expect(span!.name).to.equal(`${call.type === "tool" ? "execute_tool" : LLM_STEP} ${call.model}`);
    expect(span!.endMs).to.equal(new Date(call.finished_at).getTime());
    expect(span!.attributes).to.include({
      "gen_ai.operation.name": call.type === "tool" ? "execute_tool" : "chat",
      "gen_ai.usage.input_tokens": call.input_tokens,
      "gen_ai.usage.output_tokens": call.output_tokens,
      "apiary.step.role": call.role,
      "apiary.step.latency_ms": call.latency_ms,
      "apiary.step.status": call.status,
    });
    // The endpoint shows each cost as its share of the rounded bill, in whole millionths.
    expect(span!.attributes["apiary.step.cost"]).to.be.closeTo(call.cost, 1e-6);
    if (call.type === "llm") expect(span!.attributes["gen_ai.provider.name"]).to.be.a("string").and.not.be.empty;
  }
}

describe("tracing: runs exported through OpenTelemetry", function () {
  this.timeout(180_000);
  let h: Harness;
  let key: string;

  before(async function () {
    this.timeout(60_000);
    h = await harness();
    ({ key } = await h.newKey());
  });

  describe("with an endpoint configured", () => {
    let collector: OtlpReceiver;
    let deployment: ProcessDeployment;
    let web: WebProcess;
    let mcp: McpTestServer;
    let hooks: WebhookReceiver;

    before(async function () {
      this.timeout(180_000);
      [collector, mcp, hooks] = await Promise.all([
        startOtlpReceiver(),
        startMcpTestServer({ requireToken: "mcp-token-never-exported" }),
        startWebhookReceiver(),
      ]);
      deployment = new ProcessDeployment({
        ...process.env,
        QUEUE_PREFIX: prefixFor("tracing"),
        LOG_LEVEL: "warn",
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20collector-credential",
      });
      [web] = await Promise.all([
        deployment.startWeb("web-traced"),
        deployment.startWorker("worker-traced", ["agent", "swarm"]),
      ]);
    });
    after(async () => {
      await deployment?.stop();
      await Promise.all([collector?.close(), mcp?.close(), hooks?.close()]);
    });

    it("an agent run with MCP tools continues the client's trace: request, queue wait, run and one span per step, as the steps endpoint says", async () => {
      const traceId = hex(16);
      const clientSpan = hex(8);
      const marker = `prompt-text-${hex(6)}`;
      const res = await request(web.url, "POST", "/v1/agent/completions", {
        key,
        headers: { traceparent: `00-${traceId}-${clientSpan}-01` },
        body: {
          agent_config: {
            agent_name: "Tracer",
            system_prompt: `system-${marker}`,
            mcp_config: { url: mcp.url, authorization_token: "mcp-token-never-exported" },
          },
          task: `task-${marker}`,
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const jobId: string = res.body.job_id;
      const { calls, body } = await callsOf(web, key, jobId);
      expect(calls.some((c) => c.type === "tool")).to.equal(true);
      const isRequestSpan = (s: ReceivedSpan) => s.traceId === traceId && s.parentSpanId === clientSpan;
      const spans = await collector.waitFor(
        (all) => spansOfRun(all, jobId).steps.length >= calls.length && all.some(isRequestSpan),
      );

      const requestSpan = spans.find(isRequestSpan);
      expect(requestSpan, "the request span, child of the client's").to.not.equal(undefined);
      expect(requestSpan!.name).to.equal("POST /v1/agent/completions");
      expect(requestSpan!.attributes).to.include({
        "http.request.method": "POST",
        "http.route": "/v1/agent/completions",
        "http.response.status_code": 200,
      });
      expect(requestSpan!.resource).to.include({ "service.name": "apiary-web", "apiary.process.role": "web" });

      const { run, wait, steps } = spansOfRun(spans, jobId);
      for (const span of [run!, wait!, ...steps]) expect(span.traceId).to.equal(traceId);
      expect(run!.parentSpanId).to.equal(requestSpan!.spanId);
      expect(wait!.parentSpanId).to.equal(requestSpan!.spanId);
      expect(wait!.endMs).to.be.at.most(run!.startMs);
      expect(run!.resource).to.include({
        "service.name": "apiary-worker-agent-swarm",
        "apiary.process.role": "worker-agent-swarm",
      });
      expect(run!.name).to.equal("run agent");
      const [row] = await h.deps.ds.query("SELECT user_id FROM runs WHERE job_id = $1", [jobId]);
      expect(run!.attributes).to.include({
        "apiary.run.kind": "agent",
        "apiary.job.id": jobId,
        "apiary.account.id": row.user_id,
        "apiary.run.status": "success",
        "apiary.run.cost": body.total_cost,
        "gen_ai.usage.input_tokens": res.body.usage.input_tokens,
        "gen_ai.usage.output_tokens": res.body.usage.output_tokens,
      });
      expectStepsMatch(steps, calls);
      for (const step of steps) {
        expect(step.startMs).to.be.at.least(run!.startMs);
        expect(step.endMs).to.be.at.most(run!.endMs);
      }

      // No prompt, output, API key or MCP token in anything exported, nor the collector's own credential.
      const exported = collector.bodies.join("\n");
      const output = JSON.stringify(res.body.outputs ?? res.body.output ?? "");
      for (const secret of [marker, key, "mcp-token-never-exported", "collector-credential"]) {
        expect(exported).to.not.include(secret);
      }
      expect(output.length).to.be.greaterThan(20);
      expect(exported).to.not.include(output.slice(1, 40));
      expect(collector.headers.every((h) => h.authorization === "Bearer collector-credential")).to.equal(true);
    });

    it("a swarm run is one trace: each agent's steps under the run, the run under the request; no webhook query is exported", async () => {
      const marker = `swarm-prompt-${hex(6)}`;
      const res = await request(web.url, "POST", "/v1/swarm/completions", {
        key,
        body: {
          name: "Traced pair",
          swarm_type: "SequentialWorkflow",
          agents: [
            { agent_name: "Drafter", system_prompt: `draft-${marker}` },
            { agent_name: "Checker", system_prompt: `check-${marker}` },
          ],
          task: `task-${marker}`,
          webhook_url: `${hooks.url}/hook?token=webhook-query-secret`,
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const jobId: string = res.body.job_id;
      const { calls, body } = await callsOf(web, key, jobId);
      expect(calls.length).to.be.at.least(2);
      const spans = await collector.waitFor((all) => {
        const { run, steps } = spansOfRun(all, jobId);
        return steps.length >= calls.length && all.some((s) => s.spanId === run!.parentSpanId);
      });
      const { run, wait, steps } = spansOfRun(spans, jobId);
      const requestSpan = spans.find((s) => s.spanId === run!.parentSpanId);
      expect(requestSpan?.name).to.equal("POST /v1/swarm/completions");
      expect(requestSpan!.parentSpanId).to.equal(""); // no client context: a trace of its own
      expect(new Set([requestSpan!, run!, wait!, ...steps].map((s) => s.traceId)).size).to.equal(1);
      expect(run!.attributes).to.include({
        "apiary.run.kind": "swarm",
        "apiary.swarm.type": "SequentialWorkflow",
        "apiary.run.status": "success",
        "apiary.run.cost": body.total_cost,
      });
      expect(new Set(steps.map((s) => s.attributes["gen_ai.agent.name"]))).to.deep.equal(
        new Set(["Drafter", "Checker"]),
      );
      expectStepsMatch(steps, calls);
      const exported = collector.bodies.join("\n");
      for (const secret of [marker, key, "webhook-query-secret", "/hook"]) expect(exported).to.not.include(secret);
    });

    it("a malformed traceparent is ignored: the request is served and starts a trace of its own", async () => {
      const traceId = hex(16);
      const malformed = [
        `00-${traceId.toUpperCase()}-${hex(8)}-01`, // upper case
        `00-${traceId}-${"0".repeat(16)}-01`, // all-zero parent
        `ff-${traceId}-${hex(8)}-01`, // a forbidden version
        `00-${traceId}-${hex(8)}-01-${"x".repeat(5000)}`, // over the bound
        `00-${traceId}-${hex(8)}`, // no flags
      ];
      for (const traceparent of malformed) {
        const res = await request(web.url, "GET", "/v1/models/available", { key, headers: { traceparent } });
        expect(res.status, traceparent.slice(0, 80)).to.equal(200);
      }
      const spans = await collector.waitFor(
        (all) => all.filter((s) => s.attributes["http.route"] === "/v1/models/available").length >= malformed.length,
      );
      const served = spans.filter((s) => s.attributes["http.route"] === "/v1/models/available");
      for (const span of served) {
        expect(span.traceId).to.not.equal(traceId);
        expect(span.parentSpanId).to.equal("");
      }
    });
  });

  describe("with the collector down or hanging", () => {
    let hanging: OtlpReceiver;
    let webSide: ProcessDeployment;
    let workerSide: ProcessDeployment;
    let web: WebProcess;

    before(async function () {
      this.timeout(180_000);
      hanging = await startOtlpReceiver({ hold: true });
      const closed = await startOtlpReceiver();
      await closed.close(); // its port now refuses connections
      const env = { ...process.env, QUEUE_PREFIX: prefixFor("tracing-down"), LOG_LEVEL: "warn" };
      webSide = new ProcessDeployment({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: closed.url });
      workerSide = new ProcessDeployment({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: hanging.url });
      [web] = await Promise.all([webSide.startWeb("web-refused"), workerSide.startWorker("worker-hanging", ["agent"])]);
    });
    after(async () => {
      await Promise.all([webSide?.stop(), workerSide?.stop()]);
      await hanging?.close();
    });

    it("runs succeed without waiting on the exporter, and the processes still stop promptly", async () => {
      for (let i = 0; i < 4; i++) {
        const started = performance.now();
        const res = await request(web.url, "POST", "/v1/agent/completions", {
          key,
          headers: { traceparent: `00-${hex(16)}-${hex(8)}-01` },
          body: { agent_config: { agent_name: "Unbothered" }, task: `collector down ${i}` },
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        // A run here takes well under a second; an exporter in its path would add its 5 s time-out.
        expect(performance.now() - started).to.be.below(3_000);
      }
      // A shutdown waits at most a few seconds for the last export, then exits.
      const stopping = performance.now();
      await Promise.all([webSide.stop(), workerSide.stop()]);
      expect(performance.now() - stopping).to.be.below(12_000);
    });
  });

  describe("without an endpoint", () => {
    let collector: OtlpReceiver;
    let deployment: ProcessDeployment;
    let web: WebProcess;
    const prefix = prefixFor("tracing-off");

    before(async function () {
      this.timeout(180_000);
      collector = await startOtlpReceiver();
      // Every tracing variable but an endpoint: still off.
      deployment = new ProcessDeployment({
        ...process.env,
        QUEUE_PREFIX: prefix,
        LOG_LEVEL: "info",
        OTEL_SERVICE_NAME: "apiary-untraced",
        OTEL_TRACES_SAMPLER: "always_on",
      });
      [web] = await Promise.all([
        deployment.startWeb("web-untraced"),
        deployment.startWorker("worker-untraced", ["agent"]),
      ]);
    });
    after(async () => {
      await deployment?.stop();
      await collector?.close();
    });

    it("makes no span, carries no trace context in the job and sends nothing", async () => {
      const res = await request(web.url, "POST", "/v1/agent/completions", {
        key,
        headers: { traceparent: `00-${hex(16)}-${hex(8)}-01` },
        body: { agent_config: { agent_name: "Untraced" }, task: "tracing off" },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const jobKey = `${prefix}:agent:${res.body.job_id}`;
      const data = JSON.parse((await h.deps.redis.hget(jobKey, "data")) ?? "null");
      expect(data, "the job is still in Redis").to.not.equal(null);
      expect(data).to.not.have.property("traceparent");
      await deployment.stop(); // a shutdown flushes what a tracer queued: there is nothing
      expect(collector.bodies).to.deep.equal([]);
    });
  });
});
