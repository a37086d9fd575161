import { expect } from "chai";
import { markers, sendAgentRequest } from "./support/agent-load";
import { useFaultStack } from "./support/fault-stack";
import { expectEveryRunSucceededOnce, untilRunsInFlight } from "./support/run-audit";

describe("fault: a worker killed with SIGKILL during load", function () {
  this.timeout(180_000);
  const stackOf = useFaultStack({
    // Two workers of eight slots each, so the load is spread over both and the killed one holds runs.
    workers: [
      { name: "worker-a", queues: ["agent"] },
      { name: "worker-b", queues: ["agent"] },
    ],
    env: { WORKER_CONCURRENCY_AGENT: "8" },
  });

  it("loses no run and runs none twice: every request is answered, every run ends once", async () => {
    const stack = stackOf();
    const specs = markers("kill", 24).map((marker) => ({ marker, maxLoops: 2, latencyMs: 800 }));
    const load = Promise.all(specs.map((spec) => sendAgentRequest(stack.apiUrl, stack.key, spec)));

    // Kill one worker while its runs are between their first and second LLM call.
    await untilRunsInFlight(stack.ds, 6);
    await stack.services.killProcess("worker-a", "SIGKILL");

    const outcomes = await load;
    expect(
      outcomes.map((o) => o.status),
      "answers",
    ).to.deep.equal(specs.map(() => 200));
    const runs = await expectEveryRunSucceededOnce(stack, outcomes);
    // Two finished turns each; a call the kill cut off with the provider is billed beside them, once.
    for (const run of runs) {
      expect(
        run.steps.filter((s) => s.status === "finished"),
        `run ${run.id}`,
      ).to.have.length(2);
      expect(run.steps.length, `run ${run.id}`).to.be.within(2, 2 + run.attempts - 1);
    }
    // The kill did hit runs in flight: the other worker took them over.
    expect(runs.filter((r) => r.attempts > 1).length, "runs retried after the kill").to.be.greaterThan(0);
  });
});
