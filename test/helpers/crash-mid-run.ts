import { expect } from "chai";
import { findRun } from "../../shared/db/runs/run-rows";
import type { Run } from "../../shared/db/entities/run.entity";
import { exited, spawnEntry } from "./child-process";
import type { Harness } from "./harness";
import { eventually } from "./http";

/**
 * The agent names of a run's finished steps, in order: what a retry replays (a call the crash
 * interrupted is stored apart, as billed but not finished).
 */
export async function storedStepAgents(h: Harness, runId: string): Promise<string[]> {
  const rows: { agent_name: string }[] = await h.deps.ds.query(
    "SELECT agent_name FROM run_steps WHERE run_id = $1 AND status = 'finished' ORDER BY seq",
    [runId],
  );
  return rows.map((r) => r.agent_name);
}

/**
 * A worker process killed in the middle of a run: `queue`'s jobs go to a child worker (the
 * harness's own is paused), `submit` posts the run asynchronously (it must answer 202), the child
 * is SIGKILLed once `killAfterSteps` steps of the run are stored (and `killWhen` says so), `atKill` looks at the agents of
 * the steps stored then (fewer than `stepsInAll`, when given: the child died before the run ended),
 * and the harness's worker retries the job, which must succeed on that second attempt. Returns the
 * run's id and final row.
 */
export async function crashMidRun(
  h: Harness,
  queue: "agent" | "swarm",
  submit: () => Promise<{ status: number; body: any }>,
  options: {
    killAfterSteps: number;
    /** Waits for this too before the kill (e.g. for a call to be with the provider). */
    killWhen?: (runId: string) => Promise<boolean>;
    stepsInAll?: number;
    atKill?: (storedAgents: string[], runId: string) => Promise<void>;
    timeoutMs?: number;
    /** Settings of the child worker (besides the tests' own). */
    childEnv?: Record<string, string>;
  },
): Promise<{ runId: string; run: Run }> {
  const inProcess = h.workers.workers.find((w) => w.name === queue)!;
  expect(inProcess, `the harness runs an in-process ${queue} worker`).to.not.equal(undefined);
  await inProcess.pause(); // let the child process take the job
  const child = spawnEntry("workers/main.ts", ["--queues", queue], { LOG_LEVEL: "info", ...options.childEnv });
  try {
    await eventually(async () => (child.output.join("").includes("workers started") ? true : undefined), 30_000);
    const accepted = await submit();
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    const runId: string = accepted.body.job_id;
    await eventually(
      async () => {
        const rows = await h.deps.ds.query("SELECT count(*)::int AS n FROM run_steps WHERE run_id = $1", [runId]);
        if (rows[0].n < options.killAfterSteps) return undefined;
        return !options.killWhen || (await options.killWhen(runId)) ? true : undefined;
      },
      20_000,
      10,
    );
    child.kill("SIGKILL");
    expect(await exited(child)).to.equal("SIGKILL");
    const stored = await storedStepAgents(h, runId);
    if (options.stepsInAll !== undefined)
      expect(stored.length, "the child died before the run ended").to.be.below(options.stepsInAll);
    await options.atKill?.(stored, runId);
    inProcess.resume();
    const run = await eventually(async () => {
      const row = await findRun(h.deps.ds, runId);
      return row && row.status !== "running" && row.status !== "queued" ? row : undefined;
    }, options.timeoutMs ?? 40_000);
    expect(run.status, JSON.stringify(run.error)).to.equal("succeeded");
    expect(run.attempts, "the retry finished the run").to.equal(2);
    return { runId, run };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    inProcess.resume();
  }
}
