import { expect } from "chai";
import { config } from "../../shared/config";
import { revokeApiKey } from "../../shared/db/api-key-store";
import type { Run } from "../../shared/db/entities/run.entity";
import { reopenFailedRun } from "../../shared/db/runs/run-retries";
import { findRun } from "../../shared/db/runs/run-rows";
import { APIError } from "../vendor/swarms-ts/src/core/error";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { swarmsClient } from "../helpers/swarms-sdk";
import { agent, callerOf, callsMentioning, postSwarm, uniqueMarker } from "../helpers/swarm";

/**
 * What an operator's actions in Bull Board do to runs, through the HTTP routes its UI calls (with
 * the admin's basic auth), real workers and the simulator, read back from Postgres.
 */
describe("operators' actions in Bull Board", () => {
  let h: Harness;
  const basic = Buffer.from(`${config.admin.user}:${config.admin.password}`).toString("base64");

  /** A call to Bull Board's JSON API, as its UI makes it. */
  const board = (method: string, path: string, body?: unknown) =>
    request(h.baseUrl, method, `/admin/queues/api${path}`, { headers: { authorization: `Basic ${basic}` }, body });

  /** A job as the board shows it, once it is in one of `states`. */
  const jobOnceIn = (queue: string, jobId: string, states: string[]) =>
    eventually(async () => {
      const answer = await board("GET", `/queues/${queue}/${jobId}`);
      return states.includes(answer.body?.status) ? (answer.body as { status: string; job: any }) : undefined;
    });

  const row = async (id: string): Promise<Run> => (await findRun(h.deps.ds, id))!;

  /**
   * The swarm, sent with the hosted API's own SDK: three agents in sequence, the third of
   * which fails its first call (a 400 from the provider) and would answer a second one. Returns
   * the failed run's job id once its job has failed.
   */
  async function failedSwarm(key: string, marker: string): Promise<string> {
    const thrown = await swarmsClient(h.baseUrl, key)
      .swarms.run({
        name: "Brief",
        swarm_type: "SequentialWorkflow",
        task: `Write a brief on ${marker}`,
        agents: [
          agent("Researcher", { model_name: "gpt-4.1" }),
          agent("Analyst", { model_name: "gpt-4.1" }),
          agent("Writer", { model_name: "gpt-4.1", llm_args: { sim_error: 400, sim_error_times: 1 } }),
        ],
      })
      .then(
        () => expect.fail("the swarm should have failed"),
        (err: unknown) => err,
      );
    expect(thrown).to.be.instanceOf(APIError);
    expect((thrown as APIError).status).to.equal(500);
    const jobId = ((thrown as APIError).error as { job_id: string }).job_id;
    await jobOnceIn("swarm", jobId, ["failed"]);
    return jobId;
  }

  before(async () => {
    h = await harness();
  });

  it("Retry on a failed run's job runs the run again: a new attempt, its finished steps replayed, the new call billed, and the board shows what Postgres says", async () => {
    const owner = await h.newKey();
    const marker = uniqueMarker("board-retry");
    const jobId = await failedSwarm(owner.key, marker);
    const failed = await row(jobId);
    expect(failed).to.include({ status: "failed", attempts: 1 });
    expect(failed.error).to.include({ agent: "Writer" });

    const retried = await board("PUT", `/queues/swarm/${jobId}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).to.equal(204);
    const shown = await jobOnceIn("swarm", jobId, ["completed", "failed"]);
    expect(shown.status, shown.job.failedReason).to.equal("completed");
    expect(shown.job.attempts).to.equal(1); // the job's attempts were counted afresh

    // Postgres: the run succeeded on its second attempt, and keeps how the first one ended.
    const record = await row(jobId);
    expect(record).to.include({ status: "succeeded", attempts: 2, error: null });
    expect(record.retries).to.have.length(1);
    expect(record.retries[0]).to.deep.include({ status: "failed", error: failed.error, usage: failed.usage });
    expect(new Date(record.retries[0].finished_at!).getTime()).to.equal(failed.finished_at!.getTime());
    if (record.kind !== "swarm") throw new Error("not a swarm run");
    const turns = record.output!.output as { role: string; content: string }[];
    expect(turns.map((t) => t.role)).to.deep.equal(["Researcher", "Analyst", "Writer"]);

    // The two agents that had answered were replayed, not asked again: the provider saw the
    // Writer twice (the failed call and the retried one) and the others once.
    const callers = callsMentioning(h, marker).map(callerOf);
    expect(callers.filter((c) => c === "Researcher")).to.have.length(1);
    expect(callers.filter((c) => c === "Analyst")).to.have.length(1);
    expect(callers.filter((c) => c === "Writer")).to.have.length(2);
    const steps = await h.deps.ds.query(
      `SELECT agent_name, input_tokens + output_tokens AS tokens FROM run_steps WHERE run_id = $1 ORDER BY seq`,
      [jobId],
    );
    expect(steps.map((s: { agent_name: string }) => s.agent_name)).to.deep.equal(["Researcher", "Analyst", "Writer"]);

    // Billed once per call made: the account's ledger has three calls, the run's usage counts them all.
    const usage = await request(h.baseUrl, "GET", "/v1/usage?days=1", { key: owner.key });
    expect(usage.status, JSON.stringify(usage.body)).to.equal(200);
    const stepTokens = steps.reduce((sum: number, s: { tokens: number }) => sum + Number(s.tokens), 0);
    expect(usage.body.totals).to.include({ calls: 3, total_tokens: stepTokens });
    expect(record.usage!.total_tokens).to.equal(stepTokens);
    expect(record.usage!.billing_info.cost_breakdown.num_agents).to.equal(3);
    // And the bill is the ledger: both attempts' calls and charges, each once.
    expect(usage.body.totals.cost).to.be.closeTo(record.usage!.billing_info.total_cost, 1e-6);

    // The board says what the record says, next to the run's id.
    expect(shown.job.returnValue).to.deep.equal({
      runId: jobId,
      status: "succeeded",
      tokens: record.usage!.total_tokens,
      cost: record.usage!.billing_info.total_cost,
      output: shown.job.returnValue.output,
    });
    expect(turns[2].content.replace(/\s+/g, " ")).to.satisfy((text: string) =>
      text.startsWith(shown.job.returnValue.output.replace(/…$/, "")),
    );
    expect(shown.job.data.runId).to.equal(jobId);
    const logs = (await board("GET", `/queues/swarm/${jobId}/logs`)).body as string[];
    expect(logs.filter((l) => l.startsWith("outcome status=failed "))).to.have.length(1);
    expect(
      logs.some((l) => l.startsWith("retry 1 by an operator; the attempt before failed: Agent 'Writer'")),
    ).to.equal(true);
    expect(logs.filter((l) => l.startsWith("agent=Writer "))).to.have.length(1); // only successful calls are logged

    // The client reads the same: the run succeeded.
    const read = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key: owner.key });
    expect(read.body).to.include({ status: "success", job_id: jobId });
  });

  it("finishes a retry cut short between its two writes (the run re-opened, its job still failed) when retried again", async () => {
    const owner = await h.newKey();
    const marker = uniqueMarker("board-cut-short");
    const jobId = await failedSwarm(owner.key, marker);
    expect(await reopenFailedRun(h.deps.ds, jobId, { by: "operator" })).to.include({ status: "queued" });
    expect((await board("GET", `/queues/swarm/${jobId}`)).body.status).to.equal("failed");

    const retried = await board("PUT", `/queues/swarm/${jobId}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).to.equal(204);
    expect((await jobOnceIn("swarm", jobId, ["completed", "failed"])).status).to.equal("completed");
    const record = await row(jobId);
    expect(record).to.include({ status: "succeeded", attempts: 2 });
    expect(record.retries).to.have.length(1); // one retry, not two
    expect(
      callsMentioning(h, marker)
        .map(callerOf)
        .filter((c) => c === "Writer"),
    ).to.have.length(2);
  });

  it("refuses Retry on a succeeded run's job (nothing runs again, nothing is billed) and on what is no run's job", async () => {
    const owner = await h.newKey();
    const marker = uniqueMarker("board-no-rerun");
    const res = await postSwarm(h, owner.key, {
      swarm_type: "SequentialWorkflow",
      task: `Summarise ${marker}`,
      agents: [agent("Solo")],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const jobId: string = res.body.job_id;
    const done = await jobOnceIn("swarm", jobId, ["completed"]);
    expect(done.job.returnValue).to.include({ runId: jobId, status: "succeeded" });
    const before = await row(jobId);

    const retried = await board("PUT", `/queues/swarm/${jobId}/retry`);
    expect(retried.status).to.equal(409);
    expect(retried.body.error).to.deep.equal({ key: "ERRORS.FORBIDDEN" });
    expect(retried.body.message).to.match(/^The run succeeded/);
    expect((await board("GET", `/queues/swarm/${jobId}`)).body.status).to.equal("completed");
    expect(await row(jobId)).to.deep.equal(before);
    expect(callsMentioning(h, marker)).to.have.length(1);

    // What names no run's job gets the board's own 4xx; nothing without the admin's credentials.
    const answers = await Promise.all(
      [
        "/queues/nowhere/0b7e0000-0000-4000-8000-00000000ab12/retry",
        "/queues/swarm/not-a-job/retry",
        `/queues/swarm/${"x".repeat(5_000)}/retry`,
        "/queues/swarm/%00%27%22/retry",
        "/queues/swarm/retry/active",
        "/queues/nowhere/retry/failed",
      ].map((path) => board("PUT", path)),
    );
    expect(answers.map((a) => a.status)).to.deep.equal([404, 404, 404, 404, 400, 404]);
    expect(answers.map((a) => a.body.error.key)).to.deep.equal([
      "ERRORS.QUEUE_NOT_FOUND",
      "ERRORS.JOB_NOT_FOUND",
      "ERRORS.JOB_NOT_FOUND",
      "ERRORS.JOB_NOT_FOUND",
      "ERRORS.STATUS_NOT_RETRIABLE",
      "ERRORS.QUEUE_NOT_FOUND",
    ]);
    // Without credentials, in any spelling of the path (a router may match it without regard to case).
    for (const path of [
      "/admin/queues/api/queues/swarm/retry/failed",
      "/ADMIN/queues/api/queues/swarm/retry/failed",
      "/Admin/Queues/api/queues/agent/retry/failed",
      "/admin/queues/API/QUEUES/swarm/retry/failed/",
    ]) {
      const anonymous = await request(h.baseUrl, "PUT", path);
      expect(anonymous.status, path).to.equal(401);
    }
  });

  it("refuses what would leave a run's record untrue (Edit, Add, Duplicate, Empty, Obliterate, cleaning unfinished jobs), and lets finished jobs be cleaned", async () => {
    const owner = await h.newKey();
    const slow = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: owner.key,
      headers: { prefer: "respond-async" },
      body: { agent_config: { agent_name: "Slow", llm_args: { sim_latency_ms: 1_500 } }, task: "take your time" },
    });
    expect(slow.status, JSON.stringify(slow.body)).to.equal(202);
    const jobId: string = slow.body.job_id;
    const active = await jobOnceIn("agent", jobId, ["active"]);

    const refusals: [string, string, unknown?][] = [
      ["PATCH", `/queues/agent/${jobId}/update-data`, { jobData: { runId: "another-run" } }],
      ["POST", "/queues/agent/add", { name: "agent-run", data: { runId: jobId }, options: {} }],
      ["PUT", `/queues/agent/${jobId}/clean`],
      ["PUT", "/queues/agent/clean/wait"],
      ["PUT", "/queues/agent/clean/delayed"],
      ["PUT", "/queues/agent/empty"],
      ["PUT", "/queues/agent/obliterate", { force: true }],
      ["PUT", `/queues/agent/${jobId}/remove-unprocessed-children`],
      ["PUT", "/queues/agent/job-schedulers/any/run"],
    ];
    for (const [method, path, body] of refusals) {
      const answer = await board(method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).to.be.oneOf([403, 409]);
      expect(answer.body.error, `${method} ${path}`).to.deep.equal({ key: "ERRORS.FORBIDDEN" });
      expect(answer.body.message, `${method} ${path}`).to.be.a("string").and.not.equal("");
    }
    const counts = await h.deps.queues.shards[0].agent.getJobCounts("wait", "delayed", "active");
    expect(counts.active).to.be.at.least(1);

    // Nothing changed: the run went on and succeeded with its job, whose data still names it.
    const finished = await jobOnceIn("agent", jobId, ["completed", "failed"]);
    expect(finished.status).to.equal("completed");
    expect(finished.job.data).to.deep.equal(active.job.data);
    expect(await row(jobId)).to.include({ status: "succeeded", attempts: 1 });

    // A finished job may go: its run has ended, and the run is the record.
    const cleaned = await board("PUT", `/queues/agent/${jobId}/clean`);
    expect(cleaned.status, JSON.stringify(cleaned.body)).to.equal(204);
    expect(await h.deps.queues.shards[0].agent.getJob(jobId)).to.equal(undefined);
    expect(await row(jobId)).to.include({ status: "succeeded" });
  });

  it("Retry all retries each failed job through its run's state machine, skipping those that may not be retried", async () => {
    // Earlier tests' failed jobs go first, so that this one's are the queue's only ones (their runs
    // stay failed; the board's own Clean all keeps jobs of the last 5 seconds). A job of an earlier
    // test still going could fail after the clean: the queue is let run dry first.
    await eventually(async () => {
      const going = await h.deps.queues.shards[0].swarm.getJobCounts("wait", "delayed", "active", "prioritized");
      return Object.values(going).every((n) => n === 0) ? true : undefined;
    }, 60_000);
    await h.deps.queues.shards[0].swarm.clean(0, Number.MAX_SAFE_INTEGER, "failed");
    const [kept, revoked] = [await h.newKey(), await h.newKey()];
    const [keptMarker, revokedMarker] = [uniqueMarker("board-all-kept"), uniqueMarker("board-all-revoked")];
    const [keptJob, revokedJob] = [
      await failedSwarm(kept.key, keptMarker),
      await failedSwarm(revoked.key, revokedMarker),
    ];
    await revokeApiKey(h.deps.ds, revoked.keyId);

    const completedAll = await board("PUT", "/queues/swarm/retry/completed");
    expect(completedAll.status).to.equal(409);
    const all = await board("PUT", "/queues/swarm/retry/failed");
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    expect(all.body).to.deep.equal({ retried: 1, skipped: 1 });

    expect((await jobOnceIn("swarm", keptJob, ["completed"])).job.returnValue.status).to.equal("succeeded");
    expect(await row(keptJob)).to.include({ status: "succeeded", attempts: 2 });
    expect((await board("GET", `/queues/swarm/${revokedJob}`)).body.status).to.equal("failed");
    expect(await row(revokedJob)).to.include({ status: "failed", attempts: 1 });
    expect((await row(revokedJob)).retries).to.deep.equal([]);
    expect(callsMentioning(h, revokedMarker)).to.have.length(3);
    const refused = await board("PUT", `/queues/swarm/${revokedJob}/retry`);
    expect(refused.status).to.equal(409);
    expect(refused.body.message).to.equal("The API key that made the run has been revoked since");
  });
});
