import { Queue, type Job } from "bullmq";
import { expect } from "chai";
import type { Redis } from "ioredis";
import { setTimeout as pace } from "node:timers/promises";
import { config } from "../../shared/config";
import { createRedis } from "../../shared/queues/redis";
import { CoalescedJobReport } from "../../workers/coalesced-job-report";
import { eventually } from "../helpers/http";
import { ScriptWatch } from "../helpers/script-watch";

const PREFIX = config.queue.prefix.replace("}", "-job-report}");

/** A BullMQ job's progress and log as Bull Board reads them. */
async function board(queue: Queue, id: string) {
  const job = (await queue.getJob(id))!;
  return { progress: job.progress, logs: (await queue.getJobLogs(id)).logs };
}

describe("a job's coalesced progress and log (Bull Board)", () => {
  let redis: Redis;
  let queue: Queue;
  let job: Job;
  let watch: ScriptWatch;

  before(async () => {
    redis = createRedis("blocking") as Redis;
    queue = new Queue("agent", { connection: redis, prefix: PREFIX });
  });

  after(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
  });

  beforeEach(async () => {
    job = await queue.add("agent-run", { runId: "report-test" });
    watch = new ScriptWatch(`${job.queueQualifiedName}:${job.id}`);
    watch.start(redis);
  });

  afterEach(() => watch.stop());

  it("writes nothing for a run that ends within its first window: the return value carries its steps", async () => {
    const report = new CoalescedJobReport(redis, job);
    report.progress({ done: 1, total: 2 });
    report.log("agent=First tokens=3");
    report.progress({ done: 2, total: 2 });
    report.log("agent=Second tokens=4");
    expect(await report.resultFields()).to.deep.equal({
      progress: { done: 2, total: 2 },
      log: ["agent=First tokens=3", "agent=Second tokens=4"],
    });
    expect(await board(queue, job.id!)).to.deep.equal({ progress: 0, logs: [] });
    expect(watch.calls).to.have.length(0);
  });

  for (const [how, attempt] of [
    ["retried by BullMQ", { attemptsStarted: 2, stacktrace: [] }],
    ["retried by an operator (attempts counted afresh)", { attemptsStarted: 1, stacktrace: ["Error: failed"] }],
  ] as const) {
    it(`a job's attempt after a failed one (${how}), however short, writes its lines after the earlier ones, in one write`, async () => {
      await job.log("outcome status=failed");
      const report = new CoalescedJobReport(redis, {
        id: job.id,
        queueQualifiedName: job.queueQualifiedName,
        ...attempt,
        stacktrace: [...attempt.stacktrace],
      });
      report.progress({ done: 1 });
      report.log("agent=Again tokens=5");
      expect(await report.resultFields()).to.deep.equal({});
      expect(await board(queue, job.id!)).to.deep.equal({
        progress: { done: 1 },
        logs: ["outcome status=failed", "agent=Again tokens=5"],
      });
      expect(watch.calls.filter((call) => call.keys.length === 2)).to.have.length(2); // BullMQ's addLog, then ours
    });
  }

  it("a longer run: progress moves as it runs, at most one write per window, every line in order", async function () {
    this.timeout(10_000);
    const windowMs = 100;
    const started = Date.now();
    const report = new CoalescedJobReport(redis, job, windowMs);
    const lines: string[] = [];
    let seenRunning: unknown;
    for (let done = 1; done <= 40; done++) {
      report.progress({ done, total: 40 });
      lines.push(`agent=A${done} tokens=${done}`);
      report.log(lines.at(-1)!);
      if (done === 30) seenRunning = (await board(queue, job.id!)).progress;
      await pace(10); // the run's calls finishing over time, not a wait for work
    }
    const elapsed = Date.now() - started;
    expect(await report.resultFields()).to.deep.equal({});
    expect(await board(queue, job.id!)).to.deep.equal({ progress: { done: 40, total: 40 }, logs: lines });
    expect(seenRunning).to.have.property("done").that.is.within(1, 29);
    const writes = watch.calls;
    // Windowed writes, then the one that ends the run.
    expect(writes.length).to.be.within(2, Math.floor(elapsed / windowMs) + 2);
    expect(writes[0].at - started).to.be.at.least(windowMs - 5);
    for (let i = 1; i < writes.length - 1; i++)
      expect(writes[i].at - writes[i - 1].at, `write ${i}`).to.be.at.least(windowMs - 5);
    // One script per write, for the progress and every line together.
    for (const write of writes)
      expect(write.keys).to.deep.equal([
        `${job.queueQualifiedName}:${job.id}`,
        `${job.queueQualifiedName}:${job.id}:logs`,
      ]);
  });

  it("a run that fails writes what is pending with its outcome line in one write, and leaves no timer", async () => {
    const windowMs = 100;
    const report = new CoalescedJobReport(redis, job, windowMs);
    report.progress({ done: 1 });
    report.log("agent=First tokens=3");
    await report.close(["outcome status=failed"]);
    expect(await board(queue, job.id!)).to.deep.equal({
      progress: { done: 1 },
      logs: ["agent=First tokens=3", "outcome status=failed"],
    });
    expect(watch.calls).to.have.length(1);
    // Two windows on, the stopped report has written nothing more.
    const until = Date.now() + 2 * windowMs;
    await eventually(async () => (Date.now() >= until ? true : undefined), 5_000, 20);
    expect(watch.calls).to.have.length(1);
  });
});
