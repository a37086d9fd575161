import { expect } from "chai";
import { APIError } from "../vendor/swarms-ts/src/core/error";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { expectPoolMatchesLedger } from "../helpers/ledger";
import { swarmsClient } from "../helpers/swarms-sdk";
import { startWebhookReceiver } from "../helpers/webhook-receiver";
import { startWebhookSender } from "../../workers/webhooks/webhook-sender";
import { agent, callerOf, callsMentioning, postSwarm, uniqueMarker } from "../helpers/swarm";

/**
 * `POST /v1/jobs/{job_id}/retry`: a client starts its failed run again from the last good step,
 * through real workers, Postgres, Redis and the LLM simulator (whose journal shows which calls
 * were sent again). The runs are made with the hosted API's SDK; the retry, which it has no
 * method for, with plain HTTP.
 */
describe("a client's retry of its failed run", () => {
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  /**
   * Three agents in sequence, the third of which fails its first call (a 400 from the provider)
   * and would answer a second one (or, with `writerFails`, as those `llm_args` say). Returns the
   * failed run's job id.
   */
  async function failedSwarm(
    key: string,
    marker: string,
    writerFails: Record<string, unknown> = { sim_error: 400, sim_error_times: 1 },
  ): Promise<string> {
    const thrown = await swarmsClient(h.baseUrl, key)
      .swarms.run({
        name: "Brief",
        swarm_type: "SequentialWorkflow",
        task: `Write a brief on ${marker}`,
        agents: [
          agent("Researcher", { model_name: "gpt-4.1" }),
          agent("Analyst", { model_name: "gpt-4.1" }),
          agent("Writer", { model_name: "gpt-4.1", llm_args: writerFails }),
        ],
      })
      .then(
        () => expect.fail("the swarm should have failed"),
        (err: unknown) => err,
      );
    expect(thrown).to.be.instanceOf(APIError);
    expect((thrown as APIError).status).to.equal(500);
    return ((thrown as APIError).error as { job_id: string }).job_id;
  }

  const retry = (key: string, jobId: string, body?: unknown) =>
    request(h.baseUrl, "POST", `/v1/jobs/${jobId}/retry`, { key, body });

  /** The job read once the run has ended again. */
  const endedJob = (key: string, jobId: string) =>
    eventually(async () => {
      const read = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
      return ["queued", "running"].includes(read.body.status) ? undefined : read.body;
    }, 30_000);

  const callersOf = (marker: string) => callsMentioning(h, marker).map(callerOf);

  it("reuses the steps that finished (not sent again, billed once), runs the failed agent, and shows both attempts", async () => {
    const owner = await h.newKey();
    const marker = uniqueMarker("client-retry");
    const jobId = await failedSwarm(owner.key, marker);
    const failed = (await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key: owner.key })).body;
    expect(failed).to.include({ status: "failed", agent: "Writer" });

    const retried = await retry(owner.key, jobId);
    expect(retried.status, JSON.stringify(retried.body)).to.equal(202);
    expect(retried.body).to.deep.equal({
      job_id: jobId,
      status: "queued",
      status_url: `/v1/jobs/${jobId}`,
      attempt: 2,
    });
    expect(retried.headers.get("location")).to.equal(`/v1/jobs/${jobId}`);

    const job = await endedJob(owner.key, jobId);
    expect(job.status, JSON.stringify(job)).to.equal("success");
    expect(job.output.map((t: { role: string }) => t.role)).to.deep.equal(["Researcher", "Analyst", "Writer"]);

    // The simulator's journal: the first two agents were asked once, the Writer twice (its failed call and the new one).
    expect(callersOf(marker).filter((c) => c === "Researcher")).to.have.length(1);
    expect(callersOf(marker).filter((c) => c === "Analyst")).to.have.length(1);
    expect(callersOf(marker).filter((c) => c === "Writer")).to.have.length(2);

    // The job read lists the attempts: how the first ended, who asked for the second, how it ended.
    expect(job.attempts).to.have.length(2);
    expect(job.attempts[0]).to.deep.include({
      attempt: 1,
      retried_at: null,
      retried_by: null,
      model_override: null,
      status: "failed",
      code: failed.code,
    });
    expect(job.attempts[1]).to.deep.include({
      attempt: 2,
      retried_by: "client",
      model_override: null,
      status: "success",
      code: null,
    });
    expect(Date.parse(job.attempts[1].retried_at)).to.be.at.least(Date.parse(job.attempts[0].finished_at));

    // Each step says which attempt made it, and whether a later one reused it.
    const steps = (await request(h.baseUrl, "GET", `/v1/jobs/${jobId}/steps`, { key: owner.key })).body;
    const calls = steps.steps.filter((s: { type: string }) => s.type === "llm");
    expect(
      calls.map((s: { agent: string; attempt: number; reused: boolean }) => [s.agent, s.attempt, s.reused]),
    ).to.deep.equal([
      ["Researcher", 1, true],
      ["Analyst", 1, true],
      ["Writer", 2, false],
    ]);

    // Billed once: the steps add up to the run's bill, which is what usage and the daily pool count.
    const micros = (dollars: number) => Math.round(dollars * 1e6);
    const stepMicros = steps.steps.reduce((sum: number, s: { cost: number }) => sum + micros(s.cost), 0);
    expect(micros(steps.total_cost)).to.equal(stepMicros);
    expect(micros(job.usage.billing_info.total_cost)).to.equal(stepMicros);
    const usage = (await request(h.baseUrl, "GET", "/v1/usage?days=1", { key: owner.key })).body;
    expect(usage.totals.calls).to.equal(3);
    // Usage sums the ledger's unrounded rows and rounds once: within the millionth bills are rounded to.
    expect(micros(usage.totals.cost)).to.be.closeTo(stepMicros, 1);
    await expectPoolMatchesLedger(h, owner.userId);
  });

  it("gives the failed agent the model the retry names, and only it", async () => {
    const owner = await h.newKey();
    const marker = uniqueMarker("client-retry-model");
    // Its model is down: every call of the Writer on gpt-4.1 fails.
    const jobId = await failedSwarm(owner.key, marker, { sim_error: 400, sim_error_model: "gpt-4.1" });

    // A model name the run endpoints refuse is refused the same way (here, with a gateway in front
    // of every provider, any name is served: blank and over-long ones are not), and changes nothing.
    for (const model_name of ["   ", "m".repeat(201)]) {
      const refused = await retry(owner.key, jobId, { model_name });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect(JSON.stringify(refused.body.detail)).to.include("model_name");
    }
    const still = (await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key: owner.key })).body;
    expect(still.status).to.equal("failed");
    expect(still.attempts).to.equal(undefined);

    const retried = await retry(owner.key, jobId, { model_name: "gpt-4o-mini" });
    expect(retried.status, JSON.stringify(retried.body)).to.equal(202);
    const job = await endedJob(owner.key, jobId);
    expect(job.status, JSON.stringify(job)).to.equal("success");

    const writerCalls = callsMentioning(h, marker).filter((body) => callerOf(body) === "Writer");
    expect(writerCalls.map((body) => body.model)).to.deep.equal(["gpt-4.1", "gpt-4o-mini"]);
    expect(job.attempts[1].model_override).to.deep.equal({ model_name: "gpt-4o-mini", agents: ["Writer"] });
    const steps = (await request(h.baseUrl, "GET", `/v1/jobs/${jobId}/steps`, { key: owner.key })).body;
    const models = steps.steps
      .filter((s: { type: string }) => s.type === "llm")
      .map((s: { agent: string; model: string }) => [s.agent, s.model]);
    expect(models).to.deep.equal([
      ["Researcher", "gpt-4.1"],
      ["Analyst", "gpt-4.1"],
      ["Writer", "gpt-4o-mini"],
    ]);
  });

  it("refuses a completed run (409), a running one (409), another account's (404), and what names no run (404)", async () => {
    const owner = await h.newKey();
    const stranger = await h.newKey();
    const marker = uniqueMarker("client-retry-refused");
    const done = await postSwarm(h, owner.key, {
      swarm_type: "SequentialWorkflow",
      task: `Summarise ${marker}`,
      agents: [agent("Solo")],
    });
    expect(done.status, JSON.stringify(done.body)).to.equal(200);
    const completed = await retry(owner.key, done.body.job_id);
    expect(completed.status).to.equal(409);
    expect(completed.body).to.include({ code: "JOB_NOT_FAILED", job_id: done.body.job_id, status: "success" });
    expect(completed.headers.get("x-should-retry")).to.equal("false");

    const slow = await postSwarm(
      h,
      owner.key,
      {
        swarm_type: "SequentialWorkflow",
        task: `Summarise slowly ${marker}`,
        agents: [agent("Slow", { llm_args: { sim_latency_ms: 20_000 } })],
      },
      { prefer: "respond-async" },
    );
    expect(slow.status).to.equal(202);
    const going = await retry(owner.key, slow.body.job_id);
    expect(going.status).to.equal(409);
    expect(going.body.code).to.equal("JOB_NOT_FINISHED");
    expect(["queued", "running"]).to.include(going.body.status);
    await request(h.baseUrl, "DELETE", `/v1/jobs/${slow.body.job_id}`, { key: owner.key });

    const failedId = await failedSwarm(owner.key, uniqueMarker("client-retry-foreign"));
    const foreign = await retry(stranger.key, failedId);
    expect(foreign.status).to.equal(404);
    expect(foreign.body.code).to.equal("NOT_FOUND");
    expect((await retry(owner.key, "not-a-job")).status).to.equal(404);
    expect((await retry(owner.key, "0b7e0000-0000-4000-8000-00000000ab12")).status).to.equal(404);
    const body = await retry(owner.key, failedId, { model_name: 42 });
    expect(body.status).to.equal(422);
    // None of it touched the failed run.
    const read = (await request(h.baseUrl, "GET", `/v1/jobs/${failedId}`, { key: owner.key })).body;
    expect(read.status).to.equal("failed");
    expect(read.attempts).to.equal(undefined);
  });

  it("lets exactly one of two concurrent retries start the run again", async () => {
    const owner = await h.newKey();
    const marker = uniqueMarker("client-retry-race");
    const jobId = await failedSwarm(owner.key, marker);
    const answers = await Promise.all([retry(owner.key, jobId), retry(owner.key, jobId)]);
    expect(answers.map((a) => a.status).sort()).to.deep.equal([202, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).to.equal("JOB_NOT_FINISHED");
    const job = await endedJob(owner.key, jobId);
    expect(job.status).to.equal("success");
    expect(job.attempts).to.have.length(2);
    expect(callersOf(marker).filter((c) => c === "Writer")).to.have.length(2);
  });

  it("reports the new attempt's end to the webhook_url the retry gives, as a new message", async () => {
    const owner = await h.newKey();
    const receiver = await startWebhookReceiver();
    const sender = startWebhookSender(h.deps.ds, { pollMs: 25, timeoutMs: 2_000 });
    try {
      const jobId = await failedSwarm(owner.key, uniqueMarker("client-retry-webhook"));
      const refused = await retry(owner.key, jobId, { webhook_url: "https://10.1.2.3/hook" });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
      expect(refused.body.code).to.equal("EGRESS_REFUSED");

      const retried = await retry(owner.key, jobId, { webhook_url: `${receiver.url}/retried` });
      expect(retried.status, JSON.stringify(retried.body)).to.equal(202);
      const [delivery] = await receiver.waitFor(1, "/retried", 30_000);
      expect(delivery.headers["webhook-id"]).to.equal(`msg_${jobId.replace(/-/g, "")}_a2`);
      const sent = JSON.parse(delivery.body);
      expect(sent.type).to.equal("job.succeeded");
      expect(sent.data).to.include({ job_id: jobId, status: "success" });
      expect(sent.data.attempts.map((a: { status: string }) => a.status)).to.deep.equal(["failed", "success"]);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });
});
