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
