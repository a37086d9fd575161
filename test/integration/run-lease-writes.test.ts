import { randomUUID } from "node:crypto";
import { expect } from "chai";
import type { RunStep } from "../../shared/db/entities/run-step.entity";
import { completeRun, insertStep } from "../../shared/db/run-finish-writes";
import { RunLeaseLostError } from "../../shared/db/run-lease-check";
import { claimRunLease, failRun, findRun, loadSteps, releaseRunLease } from "../../shared/db/run-store";
import { createKey, createRun } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";

/**
 * The writes a run's execution makes after claiming it (its steps, its completion, its failure)
 * count only while it holds the run's lease: against real Postgres, two executions of one run, the
 * first of which stalled past its lease while the second took the run over.
 */
describe("a run's writes are made only by the execution holding its lease", () => {
  let h: Harness;
  let owner: { apiKeyId: string; userId: string };
  before(async () => {
    h = await harness();
    const made = await createKey(h.deps.ds);
    owner = { apiKeyId: made.keyId, userId: made.userId };
  });

  const step = (runId: string, agentName: string): RunStep => {
    const at = new Date();
    return {
      run_id: runId,
      seq: 0,
      step_key: "#0",
      agent_name: agentName,
      role: "agent",
      input: [{ role: "user", content: "task" }],
      output: { role: "assistant", content: `answer of ${agentName}` },
      model: "gpt-4o-mini",
      provider: "openai",
      input_tokens: 1,
      output_tokens: 1,
      cost: 0,
      upstream_cost: null,
      started_at: at,
      finished_at: at,
    };
  };
  const output = (content: string) => ({ outputs: [{ role: "A", content }] }) as any;

  /** A run claimed by `stale`, whose lease ran out (it stalled) before `current` claimed the run. */
  async function takenOver() {
    const run = await createRun(h.deps.ds, { kind: "agent", owner });
    const stale = randomUUID();
    const current = randomUUID();
    expect((await claimRunLease(h.deps.ds, run.id, stale, 30_000)).state).to.equal("claimed");
    await h.deps.ds.query(`UPDATE runs SET lease_until = now() - interval '1 second' WHERE id = $1`, [run.id]);
    expect((await claimRunLease(h.deps.ds, run.id, current, 30_000)).state).to.equal("claimed");
    return { runId: run.id, stale, current };
  }

  /** What each settled write came to: "stored" or the name of its error. */
  const outcomes = (settled: PromiseSettledResult<unknown>[]) =>
    settled.map((s) => (s.status === "fulfilled" ? "stored" : (s.reason as Error).name));

  it("stores nothing of the execution that lost the lease, tells it so, and keeps the owner's writes", async () => {
    const { runId, stale, current } = await takenOver();

    const refused = await Promise.allSettled([
      insertStep(h.deps.ds, step(runId, "Stale"), stale),
      completeRun(h.deps.ds, runId, output("stale"), null, stale),
      failRun(h.deps.ds, runId, { message: "stale failure", code: "LLM_CALL_FAILED" }, { owner: stale }),
    ]);
    expect(outcomes(refused)).to.deep.equal(Array(3).fill("RunLeaseLostError"));
    const untouched = await findRun(h.deps.ds, runId);
    expect(untouched).to.include({ status: "running", lease_owner: current, output: null, error: null });
    expect(await loadSteps(h.deps.ds, runId)).to.deep.equal([]);

    await insertStep(h.deps.ds, step(runId, "Current"), current);
    const done = await completeRun(h.deps.ds, runId, output("current"), null, current);
    expect(done).to.include({ id: runId, status: "succeeded" });
    expect(done!.output).to.deep.equal(output("current"));
    expect((await loadSteps(h.deps.ds, runId)).map((s) => s.agent_name)).to.deep.equal(["Current"]);
  });

  it("in one batch with the owner's writes, refuses only the stale execution's", async () => {
    const { runId, stale, current } = await takenOver();

    // Called together, the two steps and then the two completions each leave as one statement.
    const steps = await Promise.allSettled([
      insertStep(h.deps.ds, step(runId, "Stale"), stale),
      insertStep(h.deps.ds, step(runId, "Current"), current),
    ]);
    const completions = await Promise.allSettled([
      completeRun(h.deps.ds, runId, output("stale"), null, stale),
      completeRun(h.deps.ds, runId, output("current"), null, current),
    ]);

    expect(outcomes(steps)).to.deep.equal(["RunLeaseLostError", "stored"]);
    expect(outcomes(completions)).to.deep.equal(["RunLeaseLostError", "stored"]);
    const row = await findRun(h.deps.ds, runId);
    expect(row?.status).to.equal("succeeded");
    expect(row?.output).to.deep.equal(output("current"));
    expect((await loadSteps(h.deps.ds, runId)).map((s) => s.agent_name)).to.deep.equal(["Current"]);
  });

  it("refuses the writes of an execution that gave its lease up (a job handed back at shutdown)", async () => {
    const run = await createRun(h.deps.ds, { kind: "agent", owner });
    const leaving = randomUUID();
    expect((await claimRunLease(h.deps.ds, run.id, leaving, 30_000)).state).to.equal("claimed");
    await releaseRunLease(h.deps.ds, run.id, leaving);

    const late = await Promise.allSettled([
      insertStep(h.deps.ds, step(run.id, "Leaving"), leaving),
      completeRun(h.deps.ds, run.id, output("late"), null, leaving),
    ]);

    expect(outcomes(late)).to.deep.equal(["RunLeaseLostError", "RunLeaseLostError"]);
    expect(late.every((s) => s.status === "rejected" && s.reason instanceof RunLeaseLostError)).to.equal(true);
    expect(await findRun(h.deps.ds, run.id)).to.include({ status: "running", output: null });
    expect(await loadSteps(h.deps.ds, run.id)).to.deep.equal([]);
    // Released, the run is the next delivery's at once.
    expect((await claimRunLease(h.deps.ds, run.id, randomUUID(), 30_000)).state).to.equal("claimed");
  });
});
