import type { ChildProcess } from "node:child_process";
import { expect } from "chai";
import type { Worker } from "bullmq";
import { findRun } from "../../shared/db/runs/run-rows";
import { createKey } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { exited, spawnEntry } from "../helpers/child-process";
import { eventually, request } from "../helpers/http";
import { entriesMentioning } from "../helpers/swarm";

/**
 * A worker process stopped with SIGTERM while a run's LLM call is in flight (the harness's own
 * agent worker is paused, so the child takes the job). `SHUTDOWN_TIMEOUT_MS` is 5 s in tests.
 */
describe("a worker stopped with SIGTERM", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  let inProcess: Worker;
  let child: (ChildProcess & { output: string[] }) | null = null;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    inProcess = h.workers.workers.find((w) => w.name === "agent")!;
  });

  beforeEach(async () => {
    await inProcess.pause();
  });

  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    child = null;
    inProcess.resume();
  });

  async function startWorker(
    drainMs: number,
    env: Record<string, string> = {},
  ): Promise<ChildProcess & { output: string[] }> {
    const started = spawnEntry("workers/main.ts", ["--queues", "agent"], {
      LOG_LEVEL: "info",
      WORKER_DRAIN_MS: String(drainMs),
      ...env,
    });
    await eventually(async () => (started.output.join("").includes("workers started") ? true : undefined), 30_000);
    return started;
  }

  /** Starts a run whose one LLM call takes `latencyMs`, and resolves once that call has reached the simulator. */
  async function runInFlight(latencyMs: number): Promise<{ runId: string; callStartedAt: number }> {
    const marker = `drain-${Date.now()}-${Math.random()}`;
    const accepted = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      headers: { prefer: "respond-async" },
      body: {
        agent_config: { agent_name: "Drained", max_loops: 1, llm_args: { sim_latency_ms: latencyMs } },
        task: marker,
      },
    });
    expect(accepted.status).to.equal(202);
    await eventually(async () => (entriesMentioning(h, marker).length > 0 ? true : undefined), 20_000, 10);
    return { runId: accepted.body.job_id, callStartedAt: Date.now() };
  }

  async function finishedRun(runId: string) {
    return eventually(async () => {
      const row = await findRun(h.deps.ds, runId);
      return row && row.status !== "running" && row.status !== "queued" ? row : undefined;
    }, 30_000);
  }

  it("takes no more jobs, lets the run in flight finish within WORKER_DRAIN_MS (longer than SHUTDOWN_TIMEOUT_MS), then exits 0", async () => {
    child = await startWorker(12_000);
    const probes = /"metrics":"(http:\/\/[^"]+)"/.exec(child.output.join(""))![1];
    const ready = await request(probes, "GET", "/readyz");
    expect(ready.status).to.equal(200);
    expect(ready.body).to.deep.equal({
      status: "ready",
      checks: { postgres: true, redis: true, migrations: true, taking_jobs: true },
    });
    const { runId } = await runInFlight(6_000);
    child.kill("SIGTERM");
    await eventually(async () => (child!.output.join("").includes("workers stopping") ? true : undefined), 5_000, 10);
    // Draining: alive, but no longer ready (it takes no more jobs), while its run finishes.
    const draining = await request(probes, "GET", "/readyz");
    expect(draining.status).to.equal(503);
    expect(draining.body).to.include({ status: "unavailable", code: "SERVICE_UNAVAILABLE" });
    expect(draining.body.checks).to.include({ postgres: true, redis: true, taking_jobs: false });
    expect((await request(probes, "GET", "/livez")).status).to.equal(200);
    const later = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      headers: { prefer: "respond-async" },
      body: { agent_config: { agent_name: "Later", max_loops: 1 }, task: "after the SIGTERM" },
    });
    expect(later.status).to.equal(202);

    expect(await exited(child)).to.equal(0);
    const exitedAt = Date.now();
    const run = (await findRun(h.deps.ds, runId))!;
    expect(run.status).to.equal("succeeded");
    expect(run.attempts).to.equal(1);
    expect(run.finished_at!.getTime()).to.be.at.most(exitedAt);
    // The job that arrived after the signal was left for others: nobody has taken it yet.
    expect((await findRun(h.deps.ds, later.body.job_id))!.status).to.equal("queued");
    inProcess.resume();
    expect((await finishedRun(later.body.job_id)).status).to.equal("succeeded");
  });

  it("hands a run still going at the end of WORKER_DRAIN_MS back to the queue, unfailed, exits 0, and another worker completes it", async () => {
    child = await startWorker(300);
    const { runId, callStartedAt } = await runInFlight(5_000);
    child.kill("SIGTERM");
    expect(await exited(child)).to.equal(0);
    expect(Date.now() - callStartedAt).to.be.below(5_000); // gone before the LLM call could answer
    expect(child.output.join("")).to.include("job handed back to the queue at shutdown");

    // Back in the queue at once, not failed and not waiting for its lock to run out.
    const job = (await h.deps.queues.shards[0].agent.getJob(runId))!;
    expect(await job.getState()).to.equal("prioritized"); // waiting, in its fair-dispatch turn
    expect(job.attemptsMade).to.equal(0);
    expect((await findRun(h.deps.ds, runId))!.status).to.equal("running");

    inProcess.resume();
    const run = await finishedRun(runId);
    expect(run.status).to.equal("succeeded");
    expect(run.attempts).to.equal(2);
  });

  it("hands back hundreds of held runs at the end of the drain, those whose LLM call waits for a slot too, and another worker completes them", async () => {
    const runs = 200;
    const cap = 50;
    // The default job concurrency holds every run; the low cap leaves most of their calls waiting.
    child = await startWorker(300, { LLM_MAX_IN_FLIGHT: String(cap) });
    const premium = await createKey(h.deps.ds, { tier: "premium" });
    const marker = `held-drain-${Date.now()}`;
    const accepted = await Promise.all(
      Array.from({ length: runs }, (_, i) =>
        request(h.baseUrl, "POST", "/v1/agent/completions", {
          key: premium.key,
          headers: { prefer: "respond-async" },
          body: {
            agent_config: { agent_name: "Held", max_loops: 1, llm_args: { sim_latency_ms: 10_000 } },
            task: `${marker}-${i}`,
          },
        }),
      ),
    );
    const ids = accepted.map((a) => a.body.job_id as string);
    const sent = () => entriesMentioning(h, marker);
    await eventually(
      async () =>
        (await h.deps.queues.shards[0].agent.getActiveCount()) === runs && sent().length === cap ? true : undefined,
      20_000,
    );
    child.kill("SIGTERM");
    expect(await exited(child)).to.equal(0);
    expect(sent(), "calls beyond the cap never left the process").to.have.length(cap);

    const states = await Promise.all(
      ids.map(async (id) => (await h.deps.queues.shards[0].agent.getJob(id))!.getState()),
    );
    expect(new Set(states)).to.deep.equal(new Set(["prioritized"])); // waiting, in their fair-dispatch turns
    inProcess.resume();
    const finished = await Promise.all(ids.map((id) => finishedRun(id)));
    expect(new Set(finished.map((r) => r.status))).to.deep.equal(new Set(["succeeded"]));
  });
});
