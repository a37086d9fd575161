import { expect } from "chai";
import { findRun } from "../../shared/db/run-store";
import type { Run } from "../../shared/db/entities/run.entity";
import { exited, spawnEntry } from "./child-process";
import type { Harness } from "./harness";
import { eventually } from "./http";

/** The agent names of a run's stored steps, in order. */
export async function storedStepAgents(h: Harness, runId: string): Promise<string[]> {
  const rows: { agent_name: string }[] = await h.deps.ds.query(
    "SELECT agent_name FROM run_steps WHERE run_id = $1 ORDER BY seq",
    [runId],
  );
  return rows.map((r) => r.agent_name);
}

/**
 * A worker process killed in the middle of a run: `queue`'s jobs go to a child worker (the
 * harness's own is paused), `start` queues the run and returns its id, the child is SIGKILLed once
 * `killAfterSteps` steps of the run are stored, `atKill` looks at what was stored then, and the
 * harness's worker retries the job. Returns the run's final row.
 */
export async function crashMidRun(
  h: Harness,
  queue: "agent" | "swarm",
  start: () => Promise<string>,
  options: { killAfterSteps: number; atKill?: (runId: string) => Promise<void>; timeoutMs?: number },
): Promise<Run> {
  const inProcess = h.workers.workers.find((w) => w.name === queue)!;
  expect(inProcess, `the harness runs an in-process ${queue} worker`).to.not.equal(undefined);
  await inProcess.pause(); // let the child process take the job
  const child = spawnEntry("workers/main.ts", ["--queues", queue], { LOG_LEVEL: "info" });
  try {
    await eventually(async () => (child.output.join("").includes("workers started") ? true : undefined), 30_000);
    const runId = await start();
    await eventually(
      async () => {
        const rows = await h.deps.ds.query("SELECT count(*)::int AS n FROM run_steps WHERE run_id = $1", [runId]);
        return rows[0].n >= options.killAfterSteps ? true : undefined;
      },
      20_000,
      20,
    );
    child.kill("SIGKILL");
    expect(await exited(child)).to.equal("SIGKILL");
    await options.atKill?.(runId);
    inProcess.resume();
    return await eventually(async () => {
      const row = await findRun(h.deps.ds, runId);
      return row && row.status !== "running" && row.status !== "queued" ? row : undefined;
    }, options.timeoutMs ?? 40_000);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    inProcess.resume();
  }
}
