import type { ChildProcess } from "node:child_process";
import { expect } from "chai";
import type { Job, Worker } from "bullmq";
import { createKey } from "../helpers/factories";
import { exited, spawnEntry } from "../helpers/child-process";
import { harness, type Harness } from "../helpers/harness";
import { eventually } from "../helpers/http";
import { queueAgentRun } from "../helpers/queued-runs";

/**
 * Fair dispatch across accounts (docs/fair-dispatch.md), with a real worker process holding two
 * agent jobs at a time (the harness's own agent worker is paused) and backlogs far beyond that.
 */
describe("fair dispatch: accounts share the workers, weighted by tier", function () {
  this.timeout(180_000);
  let h: Harness;
  let inProcess: Worker;
  let child: (ChildProcess & { output: string[] }) | null = null;

  before(async () => {
    h = await harness();
    inProcess = h.workers.workers.find((w) => w.name === "agent")!;
    await inProcess.pause();
  });

  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited(child);
    }
    child = null;
  });

  after(() => inProcess.resume());

  /** A worker process for the agent queue that holds two jobs at once. */
  async function startSmallWorker(): Promise<ChildProcess & { output: string[] }> {
    const started = (child = spawnEntry("workers/main.ts", ["--queues", "agent"], {
      LOG_LEVEL: "info",
      WORKER_CONCURRENCY_AGENT: "2",
    }));
    await eventually(async () => (started.output.join("").includes("workers started") ? true : undefined), 60_000);
    return started;
  }

  /** Queues `count` runs for `key`, one after the other (so their order is known). */
  async function queueBacklog(key: string, label: string, count: number, latencyMs: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(await queueAgentRun(h, key, `${label}-${i}`, latencyMs));
    return ids;
  }

  /** The jobs once a worker has taken each of them (BullMQ's `processedOn`, set when a worker takes it). */
  async function taken(ids: string[], withinMs: number): Promise<Job[]> {
    const queue = h.deps.queues.shards[0].agent;
    return eventually(
      async () => {
        const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
        return jobs.every((job) => job?.processedOn) ? (jobs as Job[]) : undefined;
      },
      withinMs,
      50,
    );
  }

  /** Whether the jobs were taken in the order given (never one before an earlier one). */
  function takenInOrder(jobs: Job[]): boolean {
    return jobs.every((job, i) => i === 0 || job.processedOn! >= jobs[i - 1].processedOn!);
  }

  it("starts another account's run within a second while one account's backlog of hundreds waits, each in its own order", async () => {
    const big = await createKey(h.deps.ds, { tier: "premium" });
    const small = await createKey(h.deps.ds, { tier: "premium" });
    const marker = `fair-${Date.now()}`;
    // 200 runs of 100 ms calls two at a time: ten seconds of work or more, all queued before the small one.
    const backlog = await queueBacklog(big.key, `${marker}-big`, 200, 100);
    child = await startSmallWorker();
    await taken(backlog.slice(0, 2), 30_000);
    const waitingBefore = await h.deps.queues.shards[0].agent.getJobCountByTypes("waiting", "prioritized");
    expect(waitingBefore, "the big account's runs still waiting").to.be.above(100);
    const smallRuns = await queueBacklog(small.key, `${marker}-small`, 3, 100);
    const [first] = await taken(smallRuns.slice(0, 1), 30_000);
    expect(first.processedOn! - first.timestamp, "the small account's run waited (ms)").to.be.below(1_000);

    const bigJobs = await taken(backlog, 120_000);
    const smallJobs = await taken(smallRuns, 5_000);
    expect(takenInOrder(bigJobs), "the big account's runs in the order it sent them").to.equal(true);
    expect(takenInOrder(smallJobs), "the small account's runs in the order it sent them").to.equal(true);
    // The small account's runs did not wait for the backlog: each was taken before its last run.
    expect(smallJobs[2].processedOn!).to.be.below(bigJobs[bigJobs.length - 1].processedOn!);
  });

  it("gives a premium account four runs for each run of a free account while both have runs waiting", async () => {
    const premium = await createKey(h.deps.ds, { tier: "premium" });
    const free = await createKey(h.deps.ds, { tier: "free" });
    const marker = `weighted-${Date.now()}`;
    // Both backlogs are queued before any worker takes a job: the premium account's first.
    const premiumRuns = await queueBacklog(premium.key, `${marker}-premium`, 60, 50);
    const freeRuns = await queueBacklog(free.key, `${marker}-free`, 20, 50);
    child = await startSmallWorker();
    const jobs = await taken([...premiumRuns, ...freeRuns], 120_000);
    const premiumIds = new Set(premiumRuns);
    const firstFifty = [...jobs].sort((a, b) => a.processedOn! - b.processedOn!).slice(0, 50);
    const premiumShare = firstFifty.filter((job) => premiumIds.has(job.id!)).length;
    // Rounds of 4 + 1: 40 of the first 50 (first in, first out would give all 50 to the premium account).
    expect(premiumShare, "premium runs among the first 50 taken").to.be.within(38, 42);
    expect(takenInOrder(jobs.slice(0, 60)), "the premium account's own order").to.equal(true);
    expect(takenInOrder(jobs.slice(60)), "the free account's own order").to.equal(true);
  });
});
