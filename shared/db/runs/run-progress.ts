import type { DataSource } from "typeorm";
import type { Run } from "../entities/run.entity";
import type { StepSummary } from "../run-step-store";
import { sql } from "../sql";

/** One finished step as a run's event stream tells it: its place (`seq`) and summary, never its messages. */
export type ProgressStep = StepSummary & { seq: number };

/** A run's state and the steps it stored from a given place on. */
export interface RunProgress {
  status: Run["status"];
  steps: ProgressStep[];
}

/** Where a watcher of a run stands: the steps from `fromSeq` on are the ones it has not told yet. */
export interface ProgressCursor {
  runId: string;
  fromSeq: number;
}

/**
 * The state and newer steps of many runs in one statement, for the event streams of runs not
 * streamed through Redis (their steps are their record): one query however many runs are
 * watched. A run missing from the answer no longer exists.
 */
export async function readRunProgress(
  ds: DataSource,
  cursors: readonly ProgressCursor[],
): Promise<Map<string, RunProgress>> {
  const rows = await sql<
    { run_id: string; status: Run["status"]; seq: number | null } & Partial<Omit<ProgressStep, "seq">>
  >(
    ds,
    `SELECT r.id AS run_id, r.status, s.seq, s.agent_name, s.role, s.model, s.input_tokens, s.output_tokens, s.cost,
            s.finished_at
       FROM unnest($1::uuid[], $2::int[]) AS w(run_id, from_seq)
       JOIN runs r ON r.id = w.run_id
       LEFT JOIN run_steps s ON s.run_id = w.run_id AND s.seq >= w.from_seq
      ORDER BY r.id, s.seq`,
    [cursors.map((c) => c.runId), cursors.map((c) => c.fromSeq)],
  );
  const progress = new Map<string, RunProgress>();
  for (const { run_id, status, seq, ...step } of rows) {
    let run = progress.get(run_id);
    if (!run) progress.set(run_id, (run = { status, steps: [] }));
    if (seq !== null) run.steps.push({ ...(step as StepSummary), seq });
  }
  return progress;
}

/** How many steps a run stored: where its ending's place starts in its stored record. */
export async function countRunSteps(ds: DataSource, runId: string): Promise<number> {
  const [row] = await sql<{ n: number }>(ds, `SELECT count(*)::int AS n FROM run_steps WHERE run_id = $1`, [runId]);
  return row.n;
}
