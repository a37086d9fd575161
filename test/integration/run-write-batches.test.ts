import { randomUUID } from "node:crypto";
import { expect } from "chai";
import type { RunStep } from "../../shared/db/entities/run-step.entity";
import { completeRun, failRun } from "../../shared/db/runs/run-results";
import { insertStep, loadSteps } from "../../shared/db/run-step-store";
import { RunLeaseLostError, claimRunLease, releaseRunLease } from "../../shared/db/runs/run-leases";
import { newRunId } from "../../shared/db/run-id";
import { failAbandonedRun } from "../../workers/abandoned-runs";
import { findRun, insertRun } from "../../shared/db/runs/run-rows";
import { agentRequest, createKey, createRun } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";

/**
 * The group-committed writes of the run spine (shared/db/statement-batch.ts): the batched SQL
 * against real Postgres, calls made together so they share one statement.
 */
describe("run writes group-committed across concurrent runs", () => {
  let h: Harness;
  let owner: { apiKeyId: string; userId: string };
  before(async () => {
    h = await harness();
    const made = await createKey(h.deps.ds);
    owner = { apiKeyId: made.keyId, userId: made.userId };
  });

  const newRun = (marker: string) => ({
    id: newRunId(),
    kind: "agent" as const,
    ...owner,
    request: agentRequest({ task: marker }),
    sealedSecrets: null,
  });

  it("stores every run inserted together; a run Postgres refuses fails alone and the others are stored", async () => {
    const runs = Array.from({ length: 12 }, (_, i) => newRun(`batch-insert-${i}`));
    // A key that does not exist: its foreign key fails, and only this insert may fail with it.
    const refused = { ...newRun("batch-insert-refused"), apiKeyId: randomUUID() };
    const results = await Promise.allSettled([
      ...runs.map((r, i) => insertRun(h.deps.ds, r, { relaxed: i % 2 === 0 })),
      insertRun(h.deps.ds, refused),
    ]);
    expect(results.slice(0, 12).map((r) => r.status)).to.deep.equal(Array(12).fill("fulfilled"));
    expect(results[12].status).to.equal("rejected");
    for (const [i, r] of runs.entries()) {
      const row = await findRun(h.deps.ds, r.id);
      expect(row, `run ${i}`).to.include({ id: r.id, job_id: r.id, kind: "agent", status: "queued" });
      expect(row!.request).to.deep.include({ task: `batch-insert-${i}` });
      expect(row!.service_tier).to.equal("standard");
    }
    expect(await findRun(h.deps.ds, refused.id)).to.equal(null);
  });

  it("claims runs together; of two deliveries of one run in the same batch exactly one takes it", async () => {
    const runs = await Promise.all(Array.from({ length: 5 }, () => createRun(h.deps.ds, { kind: "agent", owner })));
    const finished = await createRun(h.deps.ds, { kind: "agent", owner, status: "succeeded" });
    const [a, b, ...rest] = await Promise.all([
      claimRunLease(h.deps.ds, runs[0].id, randomUUID(), 30_000),
      claimRunLease(h.deps.ds, runs[0].id, randomUUID(), 30_000),
      ...runs.slice(1).map((r) => claimRunLease(h.deps.ds, r.id, randomUUID(), 30_000)),
      claimRunLease(h.deps.ds, finished.id, randomUUID(), 30_000),
    ]);
    expect([a.state, b.state].sort()).to.deep.equal(["claimed", "leased"]);
    const won = a.state === "claimed" ? a : b;
    expect(won.state === "claimed" && won.run.attempts).to.equal(1);
    expect(rest.slice(0, 4).map((c) => c.state)).to.deep.equal(Array(4).fill("claimed"));
    expect(rest[4].state).to.equal("finished");
    for (const [i, c] of rest.slice(0, 4).entries())
      expect(c.state === "claimed" && c.run.id, `run ${i + 1}`).to.equal(runs[i + 1].id);
  });

  it("stores steps and completions made together; a run no longer running is not completed", async () => {
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => createRun(h.deps.ds, { kind: "agent", owner, status: "running" })),
    );
    const cancelled = await createRun(h.deps.ds, { kind: "agent", owner, status: "cancelled" });
    const at = new Date();
    await Promise.all(
      runs.map((r, i) =>
        insertStep(
          h.deps.ds,
          {
            run_id: r.id,
            seq: 1,
            step_key: "agent:0",
            agent_name: `Agent ${i}`,
            role: "agent",
            input: [{ role: "user", content: `step ${i} "quoted" \\ and {braces}` }],
            output: { role: "assistant", content: `answer ${i}` },
            model: "gpt-4o-mini",
            provider: i % 2 ? null : "openai",
            input_tokens: 10 + i,
            output_tokens: 20 + i,
            cost: 0.001 * i,
            upstream_cost: null,
            started_at: at,
            finished_at: at,
            status: "finished",
          },
          null,
        ),
      ),
    );
    const rows = await Promise.all([
      ...runs.map((r, i) =>
        completeRun(h.deps.ds, r.id, { outputs: [{ role: "A", content: `done ${i}` }] } as any, null, null),
      ),
      completeRun(h.deps.ds, cancelled.id, { outputs: [] } as any, null, null),
    ]);
    for (const [i, r] of runs.entries()) {
      expect(rows[i], `run ${i}`).to.include({ id: r.id, status: "succeeded" });
      expect(rows[i]!.output).to.deep.equal({ outputs: [{ role: "A", content: `done ${i}` }] });
      const [step] = await loadSteps(h.deps.ds, r.id);
      expect(step).to.include({ agent_name: `Agent ${i}`, input_tokens: 10 + i, output_tokens: 20 + i });
      expect(step.input).to.deep.equal([{ role: "user", content: `step ${i} "quoted" \\ and {braces}` }]);
      expect(step.provider).to.equal(i % 2 ? null : "openai");
    }
    expect(rows[4]).to.equal(null);
    expect((await findRun(h.deps.ds, cancelled.id))!.status).to.equal("cancelled");
  });

  it("of two completions of one run in a batch, only the first is told it completed the run", async () => {
    const run = await createRun(h.deps.ds, { kind: "agent", owner, status: "running" });
    const [first, second] = await Promise.all([
      completeRun(h.deps.ds, run.id, { outputs: [{ role: "A", content: "first" }] } as any, null, null),
      completeRun(h.deps.ds, run.id, { outputs: [{ role: "A", content: "second" }] } as any, null, null),
    ]);
    expect(first).to.include({ id: run.id, status: "succeeded" });
    expect(first!.output).to.deep.equal({ outputs: [{ role: "A", content: "first" }] });
    expect(second).to.equal(null);
  });
  /**
   * The writes a run's execution makes after claiming it (its steps, its completion, its failure)
   * count only while it holds the run's lease: two executions of one run, the first of which
   * stalled past its lease while the second took the run over.
   */
  describe("made only by the execution holding the run's lease", () => {
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
        status: "finished",
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

    // BullMQ gives a job up when its lock was lost too often, which a long stall can cause while
    // the execution holding the run is alive: its run must not be failed from under it.
    it("a job out of attempts leaves a run to the execution holding a live lease, which completes it", async () => {
      const run = await createRun(h.deps.ds, { kind: "agent", owner });
      const holder = randomUUID();
      expect((await claimRunLease(h.deps.ds, run.id, holder, 400)).state).to.equal("claimed");
      const abandoned = failAbandonedRun(h.deps.ds, run.id);
      const completed = await completeRun(h.deps.ds, run.id, output("finished"), null, holder);
      expect(completed).to.include({ status: "succeeded" });
      expect(await abandoned, "nothing left to fail").to.equal(null);
      expect(await findRun(h.deps.ds, run.id)).to.include({ status: "succeeded" });
    });

    it("a job out of attempts fails its run whoever holds it once the run is past its own time limit, or the worker stops", async () => {
      // A lease still renewed a minute past the run's time limit (a day by default) is a stuck execution's.
      const stuck = await createRun(h.deps.ds, { kind: "agent", owner });
      expect((await claimRunLease(h.deps.ds, stuck.id, randomUUID(), 30_000)).state).to.equal("claimed");
      await h.deps.ds.query(`UPDATE runs SET started_at = now() - interval '25 hours' WHERE id = $1`, [stuck.id]);
      expect(await failAbandonedRun(h.deps.ds, stuck.id)).to.include({ status: "failed" });

      // A worker shutting down fails what it still waits for: nothing would fail it after.
      const waited = await createRun(h.deps.ds, { kind: "agent", owner });
      expect((await claimRunLease(h.deps.ds, waited.id, randomUUID(), 30_000)).state).to.equal("claimed");
      const shutdown = new AbortController();
      const abandoned = failAbandonedRun(h.deps.ds, waited.id, shutdown.signal);
      // It waits for the lease while the holder lives: the run is still running a moment later.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await findRun(h.deps.ds, waited.id)).to.include({ status: "running" });
      shutdown.abort();
      expect(await abandoned).to.include({ status: "failed" });
    });

    it("a job out of attempts fails its run once the lease lapses without the run ending (its holder died)", async () => {
      const run = await createRun(h.deps.ds, { kind: "agent", owner });
      expect((await claimRunLease(h.deps.ds, run.id, randomUUID(), 400)).state).to.equal("claimed");
      const started = Date.now();
      const failed = await failAbandonedRun(h.deps.ds, run.id);
      expect(Date.now() - started, "not while the lease held").to.be.at.least(350);
      expect(failed).to.include({ status: "failed" });
      expect(failed!.error).to.deep.include({ code: "RUN_ABANDONED" });
    });
  });
});
