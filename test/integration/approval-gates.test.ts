import { expect } from "chai";
import { Webhook } from "standardwebhooks";
import { startWebhookSender, type WebhookSender } from "../../workers/webhooks/webhook-sender";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";
import { DocumentSchemas } from "../helpers/openapi";
import { parseSse } from "../helpers/sse";
import { callsMentioning, uniqueMarker } from "../helpers/swarm";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

const AGENT = "/v1/agent/completions";
const ASYNC = { Prefer: "respond-async" };
/** Job reads poll this often, well inside the free tier's 100 requests a minute. */
const POLL_EVERY_MS = 250;
const POLL_WITHIN_MS = 15_000;

/**
 * Approval gates against the real stack: an agent whose model calls a gated MCP tool parks its
 * run (its BullMQ job delayed, holding no worker), and the client's decision continues it.
 */
describe("approval gates (requires_approval, approve, reject)", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  let mcp: McpTestServer;

  before(async () => {
    h = await harness();
    mcp = await startMcpTestServer();
  });
  // An account per test: each one's polling counts against its own rate limits.
  beforeEach(async () => ({ key } = await h.newKey()));
  after(async () => mcp?.close());

  /** An agent whose only tool is the MCP server's `echo`, gated. */
  const gatedRun = (task: string, extra: Record<string, unknown> = {}) => ({
    agent_config: {
      agent_name: "Gated",
      max_loops: 1,
      tool_call_summary: false,
      mcp_config: { url: mcp.url },
      requires_approval: ["echo"],
    },
    tools_enabled: ["echo"],
    task,
    ...extra,
  });

  const readJob = async (jobId: string, as = key) =>
    (await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key: as })).body;
  const parked = (jobId: string, as = key) =>
    eventually(
      async () => {
        const job = await readJob(jobId, as);
        return job.status === "awaiting_approval" ? job : undefined;
      },
      POLL_WITHIN_MS,
      POLL_EVERY_MS,
    );
  const ended = (jobId: string) =>
    eventually(
      async () => {
        const job = await readJob(jobId);
        return ["success", "failed", "cancelled"].includes(job.status) ? job : undefined;
      },
      POLL_WITHIN_MS,
      POLL_EVERY_MS,
    );
  const start = async (body: unknown, as = key) => {
    const res = await request(h.baseUrl, "POST", AGENT, { key: as, body, headers: ASYNC });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    return res.body.job_id as string;
  };
  const echoCalls = () => mcp.callsByTool.get("echo") ?? 0;
  const jobOf = async (jobId: string) =>
    (await h.deps.queues.of((await ownerOf(jobId)) as string).agent.getJob(jobId))!;
  const ownerOf = async (jobId: string) =>
    (await h.deps.ds.query("SELECT user_id FROM runs WHERE id = $1", [jobId]))[0].user_id as string;

  it("parks on the gated call holding no worker, shows the call, and on approve runs it once and completes", async () => {
    const marker = uniqueMarker("approve");
    const echoesBefore = echoCalls();
    const jobId = await start(gatedRun(marker));
    const job = await parked(jobId);
    expect(job.pending_approval.tool_calls).to.have.length(1);
    const [call] = job.pending_approval.tool_calls;
    expect(call).to.include({ name: "echo", agent_name: "Gated" });
    expect(JSON.parse(call.arguments)).to.be.an("object");
    expect(Date.parse(job.pending_approval.since)).to.be.at.most(Date.now());
    // The parked job read is what the OpenAPI document says it is.
    const doc = (await request(h.baseUrl, "GET", "/openapi.json")).body;
    const read = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
    expect(new DocumentSchemas(doc, "api").responseProblems("GET", `/v1/jobs/${jobId}`, read)).to.deep.equal([]);
    // No worker holds it: its job waits delayed, the run has no lease, and the tool has not run.
    expect(await (await jobOf(jobId)).getState()).to.equal("delayed");
    const [row] = await h.deps.ds.query("SELECT lease_owner FROM runs WHERE id = $1", [jobId]);
    expect(row.lease_owner).to.equal(null);
    expect(echoCalls()).to.equal(echoesBefore);
    // Meanwhile the worker takes and finishes another run.
    const other = await request(h.baseUrl, "POST", AGENT, {
      key,
      body: { agent_config: { agent_name: "Other" }, task: uniqueMarker("other") },
    });
    expect(other.status, JSON.stringify(other.body)).to.equal(200);
    expect(callsMentioning(h, marker)).to.have.length(1); // the call that asked for the tool, once

    const res = await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/approve`, { key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({
      job_id: jobId,
      status: "queued",
      tool_calls: [{ id: call.id, name: "echo", approved: true }],
    });
    const done = await ended(jobId);
    expect(done.status, JSON.stringify(done)).to.equal("success");
    expect(echoCalls()).to.equal(echoesBefore + 1);
    // The first call was replayed, not sent again: two calls in all, the second with the tool's result.
    const sent = callsMentioning(h, marker);
    expect(sent).to.have.length(2);
    const toolResult = sent[1].messages.find((m: any) => m.role === "tool");
    expect(toolResult.tool_call_id).to.equal(call.id);
    expect(toolResult.content).to.not.match(/rejected/);
    const steps = await h.deps.ds.query("SELECT role, model FROM run_steps WHERE run_id = $1 ORDER BY seq", [jobId]);
    expect(steps.map((s: any) => s.model)).to.deep.equal(["gpt-4.1", "approval:echo", "mcp:echo", "gpt-4.1"]);
  });

  it("on reject gives the model the reason as the tool's result and never runs the tool", async () => {
    const marker = uniqueMarker("reject");
    const echoesBefore = echoCalls();
    const jobId = await start(gatedRun(marker));
    await parked(jobId);
    const tooLong = await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/reject`, {
      key,
      body: { reason: "x".repeat(2_001) },
    });
    expect(tooLong.status).to.equal(422);
    const res = await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/reject`, {
      key,
      body: { reason: "not on production data" },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.tool_calls[0].approved).to.equal(false);
    expect((await ended(jobId)).status).to.equal("success");
    expect(echoCalls()).to.equal(echoesBefore);
    const sent = callsMentioning(h, marker);
    expect(sent).to.have.length(2);
    const toolResult = sent[1].messages.find((m: any) => m.role === "tool");
    expect(toolResult.content).to.include("rejected").and.include("not on production data");
  });

  it("answers 404 for another account's run and 409 for a run not parked, and one of two concurrent approvals wins", async () => {
    const { key: otherKey } = await h.newKey();
    const jobId = await start(gatedRun(uniqueMarker("race")));
    await parked(jobId);
    const foreign = await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/approve`, { key: otherKey });
    expect(foreign.status).to.equal(404);
    const unknownCall = await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/approve`, {
      key,
      body: { tool_call_ids: ["call_nope"] },
    });
    expect(unknownCall.status).to.equal(422);
    const echoesBefore = echoCalls();
    const answers = await Promise.all(
      [0, 1, 2].map(() => request(h.baseUrl, "POST", `/v1/jobs/${jobId}/approve`, { key })),
    );
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409, 409]);
    const lost = answers.find((a) => a.status === 409)!;
    expect(lost.body.code).to.equal("JOB_NOT_AWAITING_APPROVAL");
    expect((await ended(jobId)).status).to.equal("success");
    expect(echoCalls()).to.equal(echoesBefore + 1);
    const decisions = await h.deps.ds.query(
      "SELECT count(*)::int AS n FROM run_steps WHERE run_id = $1 AND role = 'approval'",
      [jobId],
    );
    expect(decisions[0].n).to.equal(1);
    const finished = await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/reject`, { key, body: { reason: "late" } });
    expect(finished.status).to.equal(409);
    // A run that is running is not parked either.
    const slow = await start({
      agent_config: { agent_name: "Slow", llm_args: { sim_latency_ms: 3_000 } },
      task: "wait",
    });
    await eventually(
      async () => ((await readJob(slow)).status === "running" ? true : undefined),
      10_000,
      POLL_EVERY_MS,
    );
    const running = await request(h.baseUrl, "POST", `/v1/jobs/${slow}/approve`, { key });
    expect(running.status).to.equal(409);
    expect(running.body).to.include({ code: "JOB_NOT_AWAITING_APPROVAL", job_id: slow });
  });

  it("times a parked run out at its time limit, failing it and freeing its job", async () => {
    const jobId = await start(gatedRun(uniqueMarker("timeout"), { budget: { timeout_seconds: 3 } }));
    await parked(jobId);
    const done = await eventually(
      async () => {
        const job = await readJob(jobId);
        return job.status === "failed" ? job : undefined;
      },
      20_000,
      POLL_EVERY_MS,
    );
    expect(done.code).to.equal("BUDGET_EXCEEDED");
    expect(done.detail).to.match(/waiting for approval/);
    expect(await (await jobOf(jobId)).getState()).to.be.oneOf(["completed", "failed"]);
    const late = await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/approve`, { key });
    expect(late.status).to.equal(409);
  });

  it("streams the parking as an awaiting_approval frame and, on approve, the rest of the run on the same stream", async () => {
    const marker = uniqueMarker("stream");
    const res = await fetch(`${h.baseUrl}${AGENT}`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(gatedRun(marker, { stream: true })),
    });
    expect(res.status).to.equal(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (event: string) => {
      while (!parseSse(text).some((f) => f.event === event)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended before ${event}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
      return parseSse(text);
    };
    const frames = await readUntil("awaiting_approval");
    const parkedFrame = frames.find((f) => f.event === "awaiting_approval")!;
    const jobId = parkedFrame.data.job_id as string;
    expect(parkedFrame.data.tool_calls[0]).to.include({ name: "echo", agent_name: "Gated" });
    expect((await readJob(jobId)).status).to.equal("awaiting_approval");
    expect((await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/approve`, { key })).status).to.equal(200);
    const all = await readUntil("done");
    const end = all.find((f) => f.event === "end")!;
    expect(end.data).to.include({ job_id: jobId, complete: true });
    expect(all.filter((f) => f.event === "error")).to.deep.equal([]);
    await reader.cancel();
  });

  it("parks a swarm whose agent calls a gated tool, and continues it on approve", async () => {
    const marker = uniqueMarker("swarm");
    const echoesBefore = echoCalls();
    const { agent_config: gated } = gatedRun(marker);
    const res = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key,
      headers: ASYNC,
      body: {
        swarm_type: "SequentialWorkflow",
        task: marker,
        agents: [gated, { agent_name: "Writer", max_loops: 1 }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const jobId = res.body.job_id as string;
    const job = await parked(jobId);
    expect(job.pending_approval.tool_calls[0]).to.include({ name: "echo", agent_name: "Gated" });
    expect(await (await h.deps.queues.of(await ownerOf(jobId)).swarm.getJob(jobId))!.getState()).to.equal("delayed");
    expect((await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/approve`, { key })).status).to.equal(200);
    const done = await ended(jobId);
    expect(done.status, JSON.stringify(done)).to.equal("success");
    expect(echoCalls()).to.equal(echoesBefore + 1);
  });

  describe("its webhook", () => {
    let receiver: WebhookReceiver;
    let sender: WebhookSender;
    before(async () => {
      receiver = await startWebhookReceiver();
      sender = startWebhookSender(h.deps.ds, { retryScheduleMs: [100], pollMs: 25, timeoutMs: 2_000 });
    });
    after(async () => {
      await sender?.close();
      await receiver?.close();
    });

    it("fires job.awaiting_approval when the run parks, with the pending calls, then job.succeeded when it ends", async () => {
      const jobId = await start(gatedRun(uniqueMarker("hook"), { webhook_url: `${receiver.url}/gate` }));
      const [delivery] = await receiver.waitFor(1, "/gate");
      const secret = (await request(h.baseUrl, "GET", "/v1/webhooks/secret", { key })).body.secret as string;
      new Webhook(secret).verify(delivery.body, delivery.headers);
      const parkedHook = JSON.parse(delivery.body);
      expect(parkedHook.type).to.equal("job.awaiting_approval");
      expect(parkedHook.data.job_id).to.equal(jobId);
      expect(parkedHook.data.pending_approval.tool_calls[0].name).to.equal("echo");
      await request(h.baseUrl, "POST", `/v1/jobs/${jobId}/approve`, { key });
      const deliveries = await receiver.waitFor(2, "/gate");
      const endHook = JSON.parse(deliveries[1].body);
      expect(endHook.type).to.equal("job.succeeded");
      expect(deliveries[1].headers["webhook-id"]).to.not.equal(deliveries[0].headers["webhook-id"]);
    });
  });
});
