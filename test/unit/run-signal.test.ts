import { expect } from "chai";
import { getEventListeners } from "node:events";
import { RunBudget } from "../../workers/agents/run-budget";
import { runSignal } from "../../workers/handlers/run-signal";

const budgetOf = (msLeft: number) =>
  new RunBudget({ maxTokens: Infinity, maxCost: Infinity, deadline: Date.now() + msLeft }, null);

/** The signals Node keeps linked to a source signal (what `AbortSignal.any` registers there). */
function dependants(signal: AbortSignal): number {
  const symbol = Object.getOwnPropertySymbols(signal).find((s) => s.toString() === "Symbol(kDependantSignals)");
  return symbol ? ((signal as any)[symbol]?.size ?? 0) : 0;
}

describe("a run's signal (workers/handlers/run-signal.ts)", () => {
  it("leaves nothing behind on the worker's long-lived shutdown signal once its runs have ended", () => {
    const shutdown = new AbortController();
    for (let i = 0; i < 20_000; i++) {
      const cancel = new AbortController();
      const lease = new AbortController();
      const run = runSignal(cancel.signal, shutdown.signal, budgetOf(24 * 3_600_000), lease.signal);
      const call = () => undefined; // an LLM call listening while it runs
      run.signal.addEventListener("abort", call, { once: true });
      run.signal.removeEventListener("abort", call);
      run.dispose();
    }
    expect(getEventListeners(shutdown.signal, "abort")).to.have.length(0);
    expect(dependants(shutdown.signal), "signals linked to the shutdown signal").to.equal(0);
  });

  it("aborts with the reason of whichever source fires: cancellation, shutdown, lease loss, deadline", async () => {
    const sources = () => ({
      cancel: new AbortController(),
      shutdown: new AbortController(),
      lease: new AbortController(),
    });
    for (const which of ["cancel", "shutdown", "lease"] as const) {
      const s = sources();
      const run = runSignal(s.cancel.signal, s.shutdown.signal, budgetOf(60_000), s.lease.signal);
      s[which].abort(new Error(`${which} fired`));
      expect(run.signal.aborted, which).to.equal(true);
      expect((run.signal.reason as Error).message).to.equal(`${which} fired`);
      run.dispose();
    }
    const s = sources();
    const timed = runSignal(s.cancel.signal, s.shutdown.signal, budgetOf(20), s.lease.signal);
    await new Promise((resolve) => timed.signal.addEventListener("abort", resolve, { once: true }));
    expect((timed.signal.reason as DOMException).name).to.equal("TimeoutError");
    expect(getEventListeners(s.shutdown.signal, "abort"), "listeners left after the deadline").to.have.length(0);
  });

  it("is aborted from the start when a source already is", () => {
    const shutdown = new AbortController();
    shutdown.abort(new Error("shutting down"));
    const run = runSignal(undefined, shutdown.signal, budgetOf(60_000));
    expect(run.signal.aborted).to.equal(true);
    expect((run.signal.reason as Error).message).to.equal("shutting down");
    run.dispose();
  });
});
