import { expect } from "chai";
import { Webhook } from "standardwebhooks";
import { startWebhookSender, type WebhookSender } from "../../workers/webhooks/webhook-sender";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { DocumentSchemas } from "../helpers/openapi";
import { postgresText, redisText } from "../helpers/secret-scan";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../helpers/webhook-receiver";

const AGENT = "/v1/agent/completions";

/** A short schedule so that retries come within the test: 3 attempts in all. */
const SCHEDULE = [100, 100];

/**
 * Run webhooks against the real stack: a local receiver verifies every delivery with the Standard
 * Webhooks reference library, as a receiver would.
 */
describe("run webhooks (webhook_url, the sender, the account's secret)", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  let keyId: string;
  let receiver: WebhookReceiver;
  let sender: WebhookSender | null = null;
  let secret: string;

  const startSender = () =>
    (sender = startWebhookSender(h.deps.ds, { retryScheduleMs: SCHEDULE, pollMs: 25, timeoutMs: 2_000 }));

  before(async () => {
    h = await harness();
    ({ key, keyId } = await h.newKey());
    receiver = await startWebhookReceiver({
      "/flaky": [500, 500],
      "/down": [500, 500, 500],
      "/silent": [0, 0, 0, 0, 0, 0],
    });
    startSender();
  });
  after(async () => {
    await sender?.close();
    await receiver?.close();
  });

  const runCount = async () =>
    Number((await h.deps.ds.query("SELECT count(*) AS n FROM runs WHERE api_key_id = $1", [keyId]))[0].n);

  const agentRun = (webhookUrl: unknown, llmArgs: Record<string, unknown> = {}) => ({
    agent_config: { agent_name: "Hooked", max_loops: 1, llm_args: llmArgs },
    task: "Name three uses of honey.",
    webhook_url: webhookUrl,
  });

  /** The delivery verified as a receiver verifies it, with `secrets` (any one of them is enough), and parsed. */
  function verified(delivery: ReceivedWebhook, ...secrets: string[]) {
    for (const one of secrets) new Webhook(one).verify(delivery.body, delivery.headers);
    return JSON.parse(delivery.body) as { type: string; timestamp: string; data: Record<string, unknown> };
  }

  it("makes the account's secret on the first webhook_url, shows it in full once, then masked", async () => {
    const none = await request(h.baseUrl, "GET", "/v1/webhooks/secret", { key });
    expect(none.status).to.equal(404);
    const res = await request(h.baseUrl, "POST", AGENT, { key, body: agentRun(`${receiver.url}/first`) });
    expect(res.status).to.equal(200);
    const first = await request(h.baseUrl, "GET", "/v1/webhooks/secret", { key });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.secret).to.match(/^whsec_[A-Za-z0-9+/=]{32}$/);
    secret = first.body.secret;
    expect(first.body.masked).to.equal(`${secret.slice(0, 10)}…`);
    const again = await request(h.baseUrl, "GET", "/v1/webhooks/secret", { key });
    expect(again.body).to.include({ secret: null, masked: first.body.masked });
    const [delivery] = await receiver.waitFor(1, "/first");
    expect(verified(delivery, secret).data.job_id).to.equal(res.body.job_id);
  });

  it("POSTs a succeeded run's job read, signed, and shows the delivery on the job (URL without its query)", async () => {
    const res = await request(h.baseUrl, "POST", AGENT, { key, body: agentRun(`${receiver.url}/ok?token=t0p-s3cret`) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const jobId = res.body.job_id as string;
    const [delivery] = await receiver.waitFor(1, "/ok");
    const payload = verified(delivery, secret);
    expect(payload.type).to.equal("job.succeeded");
    expect(delivery.headers["webhook-id"]).to.match(/^msg_[0-9a-f]{32}$/);

    const job = await eventually(async () => {
      const read = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
      return read.body.webhook?.status === "delivered" ? read.body : undefined;
    });
    const { webhook, ...jobRead } = job;
    expect(payload.data).to.deep.equal(jobRead);
    expect(payload.data).to.not.have.property("webhook");
    expect(webhook).to.deep.include({ url: `${receiver.url}/ok`, status: "delivered", next_attempt_at: null });
    expect(webhook.attempts).to.have.length(1);
    expect(webhook.attempts[0].status_code).to.equal(200);
    expect(JSON.stringify(job)).to.not.include("t0p-s3cret");
    // The job read with its webhook state is what the OpenAPI document says it is.
    const doc = (await request(h.baseUrl, "GET", "/openapi.json")).body;
    const read = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
    expect(new DocumentSchemas(doc, "api").responseProblems("GET", `/v1/jobs/${jobId}`, read)).to.deep.equal([]);

    const [row] = await h.deps.ds.query("SELECT webhook_url, request FROM runs WHERE job_id = $1", [jobId]);
    expect(row.webhook_url).to.equal(`${receiver.url}/ok?token=t0p-s3cret`);
    expect(row.request).to.not.have.property("webhook_url");
  });

  it("retries a receiver that answers 500 twice: delivered on the third attempt with the same webhook-id", async () => {
    const res = await request(h.baseUrl, "POST", AGENT, { key, body: agentRun(`${receiver.url}/flaky`) });
    expect(res.status).to.equal(200);
    const deliveries = await receiver.waitFor(3, "/flaky");
    expect(new Set(deliveries.map((d) => d.headers["webhook-id"])).size).to.equal(1);
    for (const d of deliveries) expect(verified(d, secret).data.job_id).to.equal(res.body.job_id);
    const job = await eventually(async () => {
      const read = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
      return read.body.webhook?.status === "delivered" ? read.body : undefined;
    });
    expect(job.webhook.attempts.map((a: { status_code: number }) => a.status_code)).to.deep.equal([500, 500, 200]);
  });

  it("marks a delivery failed once the schedule is used up", async () => {
    const res = await request(h.baseUrl, "POST", AGENT, { key, body: agentRun(`${receiver.url}/down`) });
    const job = await eventually(async () => {
      const read = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
      return read.body.webhook?.status === "failed" ? read.body : undefined;
    });
    expect(job.webhook.attempts.map((a: { status_code: number }) => a.status_code)).to.deep.equal([500, 500, 500]);
    expect(job.webhook.next_attempt_at).to.equal(null);
  });

  it("delivers a failed run (job.failed) and a cancelled one (job.cancelled)", async () => {
    const failed = await request(h.baseUrl, "POST", AGENT, {
      key,
      body: agentRun(`${receiver.url}/failed`, { sim_error: 400 }),
    });
    expect(failed.status).to.not.equal(200);
    const [failure] = await receiver.waitFor(1, "/failed");
    expect(verified(failure, secret)).to.deep.include({ type: "job.failed" });
    expect(verified(failure, secret).data).to.include({ status: "failed" });

    const started = await request(h.baseUrl, "POST", AGENT, {
      key,
      body: agentRun(`${receiver.url}/cancelled`, { sim_latency_ms: 5_000 }),
      headers: { prefer: "respond-async" },
    });
    expect(started.status).to.equal(202);
    const cancel = await request(h.baseUrl, "DELETE", `/v1/jobs/${started.body.job_id}`, { key });
    expect(cancel.status).to.equal(200);
    const [cancelled] = await receiver.waitFor(1, "/cancelled");
    const payload = verified(cancelled, secret);
    expect(payload.type).to.equal("job.cancelled");
    expect(payload.data).to.include({ job_id: started.body.job_id, status: "cancelled" });
  });

  it("keeps a due delivery while the sender is stopped and delivers it once one starts again", async () => {
    await sender!.close();
    sender = null;
    const res = await request(h.baseUrl, "POST", AGENT, { key, body: agentRun(`${receiver.url}/later`) });
    expect(res.status).to.equal(200);
    const [due] = await h.deps.ds.query(
      "SELECT d.status FROM webhook_deliveries d JOIN runs r ON r.id = d.run_id WHERE r.job_id = $1",
      [res.body.job_id],
    );
    expect(due).to.deep.equal({ status: "pending" });
    expect(receiver.received.filter((r) => r.path === "/later")).to.deep.equal([]);
    startSender();
    const [delivery] = await receiver.waitFor(1, "/later");
    expect(verified(delivery, secret).data.job_id).to.equal(res.body.job_id);
  });

  it("keeps lanes for other accounts while one account's receiver never answers", async () => {
    // Two lanes of the sender's four (WEBHOOK_ACCOUNT_LANES) at most go to the silent receiver's
    // account; taking the oldest due delivery first gave it all four for a whole time-out.
    const silentRuns = await Promise.all(
      [0, 1, 2, 3].map(() => request(h.baseUrl, "POST", AGENT, { key, body: agentRun(`${receiver.url}/silent`) })),
    );
    expect(silentRuns.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
    await receiver.waitFor(2, "/silent");
    const other = await h.newKey();
    const res = await request(h.baseUrl, "POST", AGENT, { key: other.key, body: agentRun(`${receiver.url}/other`) });
    expect(res.status).to.equal(200);
    await receiver.waitFor(1, "/other");
    const attempted = await h.deps.ds.query(
      `SELECT count(*) AS n FROM webhook_deliveries d JOIN runs r ON r.id = d.run_id
        WHERE r.job_id = ANY($1) AND jsonb_array_length(d.attempts) > 0`,
      [silentRuns.map((r) => r.body.job_id)],
    );
    // Delivered while the silent receiver's first attempts were still waiting for their time-out.
    expect(Number(attempted[0].n)).to.equal(0);
    expect(receiver.received.filter((r) => r.path === "/silent")).to.have.length(2);
  });

  it("refuses a private address, a bad scheme and a URL too long with a 400, and starts no run", async () => {
    const before = await runCount();
    const cases: [unknown, string][] = [
      ["https://10.1.2.3/hook", "EGRESS_REFUSED"],
      ["http://127.0.0.2:9/hook", "INVALID_WEBHOOK_URL"],
      ["https://localhost/hook", "EGRESS_REFUSED"],
      ["ftp://example.test/hook", "INVALID_WEBHOOK_URL"],
      [`https://example.test/${"a".repeat(2100)}`, "INVALID_WEBHOOK_URL"],
    ];
    for (const [url, code] of cases) {
      const res = await request(h.baseUrl, "POST", AGENT, { key, body: agentRun(url) });
      expect(res.status, `${String(url).slice(0, 40)} ${JSON.stringify(res.body).slice(0, 300)}`).to.equal(400);
      expect(res.body).to.include({ code, status_code: 400 });
      expect(res.body.detail).to.match(/^webhook_url: /);
    }
    const swarm = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key,
      body: {
        swarm_type: "SequentialWorkflow",
        task: "t",
        agents: [{ agent_name: "A" }],
        webhook_url: "https://192.168.1.1/x",
      },
    });
    expect(swarm.status).to.equal(400);
    expect(swarm.body.code).to.equal("EGRESS_REFUSED");
    expect(await runCount()).to.equal(before);
  });

  it("gives a batch item with its own webhook_url a delivery of its own", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/batch/completions", {
      key,
      body: [
        { ...agentRun(`${receiver.url}/item`), task: "first" },
        { ...agentRun(null), task: "second" },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [item] = await receiver.waitFor(1, "/item");
    const payload = verified(item, secret);
    expect(payload.type).to.equal("job.succeeded");
    const [row] = await h.deps.ds.query("SELECT parent_id FROM runs WHERE job_id = $1", [payload.data.job_id]);
    expect(row.parent_id).to.be.a("string");
  });

  it("fires a batch's own webhook_url once the whole batch has ended, with the batch's job read", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/advanced-research/batch/completions", {
      key,
      body: {
        webhook_url: `${receiver.url}/research-batch`,
        // Too small a budget for even the plan: each session fails at its first call, without searching.
        input_schemas: [
          { task: "one", budget: { max_tokens: 1 }, webhook_url: `${receiver.url}/research-item` },
          { task: "two", budget: { max_tokens: 1 } },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [batch] = await receiver.waitFor(1, "/research-batch");
    const payload = verified(batch, secret);
    const [parent] = await h.deps.ds.query(
      "SELECT job_id FROM runs WHERE kind = 'advanced_research_batch' AND api_key_id = $1",
      [keyId],
    );
    expect(payload.data.job_id).to.equal(parent.job_id);
    const read = await request(h.baseUrl, "GET", `/v1/jobs/${parent.job_id}`, { key });
    const { webhook: _state, ...jobRead } = read.body;
    expect(payload.data).to.deep.equal(jobRead);
    expect(payload.data.results).to.have.length(2);
    const [item] = await receiver.waitFor(1, "/research-item");
    expect(verified(item, secret).type).to.equal("job.failed");
  });

  it("signs with the old and the new secret after a rotation, and never stores either in clear", async () => {
    const rotated = await request(h.baseUrl, "POST", "/v1/webhooks/secret/rotate", { key });
    expect(rotated.status).to.equal(200);
    const next = rotated.body.secret as string;
    expect(next)
      .to.match(/^whsec_/)
      .and.not.equal(secret);
    expect(rotated.body.previous_expires_at).to.be.a("string");
    expect((await request(h.baseUrl, "GET", "/v1/webhooks/secret", { key })).body.secret).to.equal(null);

    const res = await request(h.baseUrl, "POST", AGENT, { key, body: agentRun(`${receiver.url}/rotated`) });
    expect(res.status).to.equal(200);
    const [delivery] = await receiver.waitFor(1, "/rotated");
    expect(delivery.headers["webhook-signature"].split(" ")).to.have.length(2);
    verified(delivery, secret); // a receiver still holding the old secret
    verified(delivery, next); // and one that switched

    const stores = `${await postgresText(h.deps.ds)}\n${await redisText(h.deps.redis)}`;
    for (const one of [secret, next]) {
      expect(stores).to.not.include(one);
      expect(stores).to.not.include(one.slice("whsec_".length));
    }
  });
});
