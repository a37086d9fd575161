import { expect } from "chai";
import { workerRegistry } from "../../shared/metrics/registry";
import { MemoryCeiling, type PausableWorker } from "../../workers/memory-ceiling";

/** What the worker's `apiary_worker_held_for_memory` gauge reports now. */
async function heldGauge(): Promise<number | undefined> {
  return (await workerRegistry.getSingleMetric("apiary_worker_held_for_memory")!.get()).values[0]?.value;
}

/** A worker that records what the ceiling asked of it. */
function fakeWorker(): PausableWorker & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async pause(doNotWaitActive?: boolean) {
      calls.push(`pause(${doNotWaitActive})`);
    },
    async resume() {
      calls.push("resume");
    },
  };
}

describe("MemoryCeiling (WORKER_MAX_RSS_MB)", () => {
  it("stops every worker taking jobs above the ceiling, without waiting for active ones, and resumes under 90% of it", async () => {
    const workers = [fakeWorker(), fakeWorker()];
    let rss = 500;
    const ceiling = new MemoryCeiling(workers, { maxRssMb: 768, readRssMb: () => rss });
    await ceiling.check();
    expect(workers[0].calls).to.deep.equal([]);
    rss = 800;
    await ceiling.check();
    await ceiling.check(); // still above: no second pause
    expect(ceiling.holding).to.equal(true);
    expect(await heldGauge()).to.equal(1);
    for (const w of workers) expect(w.calls).to.deep.equal(["pause(true)"]);
    rss = 700; // under the ceiling but above 90% of it (691): still held back
    await ceiling.check();
    expect(ceiling.holding).to.equal(true);
    rss = 650;
    await ceiling.check();
    expect(ceiling.holding).to.equal(false);
    expect(await heldGauge()).to.equal(0);
    for (const w of workers) expect(w.calls).to.deep.equal(["pause(true)", "resume"]);
    rss = 900;
    await ceiling.check();
    for (const w of workers) expect(w.calls).to.deep.equal(["pause(true)", "resume", "pause(true)"]);
  });

  it("is holding only once pause() has succeeded: a failed pause leaves it not holding and is tried again", async () => {
    const refusing = fakeWorker();
    let refuse = true;
    const pause = refusing.pause;
    refusing.pause = async (doNotWaitActive) => {
      if (refuse) throw new Error("Redis is away");
      await pause(doNotWaitActive);
    };
    const fine = fakeWorker();
    const ceiling = new MemoryCeiling([refusing, fine], { maxRssMb: 100, readRssMb: () => 200 });

    await ceiling.check();
    expect(ceiling.holding).to.equal(true); // the one that did pause is held
    expect(fine.calls).to.deep.equal(["pause(true)"]);
    expect(refusing.calls).to.deep.equal([]);
    refuse = false;
    await ceiling.check();
    expect(refusing.calls).to.deep.equal(["pause(true)"]); // asked again; the paused one is not
    expect(fine.calls).to.deep.equal(["pause(true)"]);

    const alone = fakeWorker();
    alone.pause = () => Promise.reject(new Error("Redis is away"));
    const single = new MemoryCeiling([alone], { maxRssMb: 100, readRssMb: () => 200 });
    await single.check();
    expect(single.holding).to.equal(false);
    expect(await heldGauge()).to.equal(0);
  });

  it("is not holding while pause() is still pending, and a check meanwhile does not resume under it", async () => {
    const worker = fakeWorker();
    let finishPause!: () => void;
    worker.pause = (doNotWaitActive) => {
      worker.calls.push(`pause(${doNotWaitActive})`);
      return new Promise<void>((resolve) => (finishPause = resolve));
    };
    let rss = 200;
    const ceiling = new MemoryCeiling([worker], { maxRssMb: 100, readRssMb: () => rss });

    const pausing = ceiling.check();
    expect(ceiling.holding).to.equal(false);
    rss = 50;
    const meanwhile = ceiling.check();
    expect(worker.calls).to.deep.equal(["pause(true)"]);
    finishPause();
    await Promise.all([pausing, meanwhile]);
    expect(ceiling.holding).to.equal(true);
    expect(await heldGauge()).to.equal(1);
    await ceiling.check(); // memory is low now: resumes
    expect(worker.calls).to.deep.equal(["pause(true)", "resume"]);
    expect(ceiling.holding).to.equal(false);
  });

  it("stays holding when resume() fails, and resumes on a later check", async () => {
    const worker = fakeWorker();
    let refuse = true;
    worker.resume = async () => {
      if (refuse) throw new Error("Redis is away");
      worker.calls.push("resume");
    };
    let rss = 200;
    const ceiling = new MemoryCeiling([worker], { maxRssMb: 100, readRssMb: () => rss });
    await ceiling.check();
    rss = 50;
    await ceiling.check();
    expect(ceiling.holding).to.equal(true);
    expect(await heldGauge()).to.equal(1);
    refuse = false;
    await ceiling.check();
    expect(ceiling.holding).to.equal(false);
    expect(worker.calls).to.deep.equal(["pause(true)", "resume"]);
  });

  it("does nothing with a ceiling of 0", async () => {
    const worker = fakeWorker();
    const ceiling = new MemoryCeiling([worker], { maxRssMb: 0, readRssMb: () => 1e9 });
    ceiling.start();
    await ceiling.check();
    ceiling.stop();
    expect(worker.calls).to.deep.equal([]);
  });

  it("reads memory on its own every few milliseconds once started, until stopped", async () => {
    const worker = fakeWorker();
    let reads = 0;
    const ceiling = new MemoryCeiling([worker], {
      maxRssMb: 100,
      everyMs: 5,
      readRssMb: () => (++reads, 200),
    });
    ceiling.start();
    const deadline = Date.now() + 2_000;
    while (worker.calls.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    ceiling.stop();
    expect(worker.calls).to.deep.equal(["pause(true)"]);
    const readsAtStop = reads;
    await new Promise((r) => setTimeout(r, 30));
    expect(reads).to.equal(readsAtStop);
  });
});
