import { expect } from "chai";
import type { DataSource } from "typeorm";
import { jsonRequest } from "../../../scripts/bench/client/json-request";
import type { JournalEntry } from "../../../scripts/llm-simulator/types";
import { sql } from "../../../shared/db/sql";
import { eventually } from "../../helpers/http";
import type { LoadOutcome } from "./agent-load";
import type { FaultStack } from "./fault-stack";

/** A run as the audit sees it: its row, its stored steps and the LLM calls the simulator got for it. */
export interface AuditedRun {
  id: string;
  task: string;
  status: string;
  attempts: number;
  /** Its steps; `status` says how each call ended (`finished`, or billed as `interrupted` by a crash). */
  steps: { step_key: string; seq: number; finished_at: Date; status: string }[];
  /** Calls whose messages carry the run's task, with the turn each belongs to. */
  calls: { turn: number; at: Date; status: number }[];
}

/** Answers that carry a job id: the request was accepted and created a run. */
function acceptedJobIds(outcomes: LoadOutcome[]): string[] {
  return outcomes.filter((o) => typeof o.body?.job_id === "string").map((o) => o.body.job_id as string);
}

/**
 * Polls `GET /v1/jobs/{id}` until every job is `success` or `failed`; returns id → status. Fails
 * naming the jobs still unfinished when `timeoutMs` passes: a lost run.
 */
export async function finalJobStatuses(
  apiUrl: string,
  key: string,
  jobIds: string[],
  timeoutMs = 60_000,
): Promise<Map<string, string>> {
  const statuses = new Map<string, string>();
  try {
    await eventually(
      async () => {
        for (const id of jobIds) {
          if (statuses.has(id)) continue;
          const answer = await jsonRequest("GET", `${apiUrl}/v1/jobs/${id}`, { apiKey: key, timeoutMs: 5_000 }).catch(
            () => null,
          );
          const status = (answer?.json as { status?: string } | undefined)?.status;
          if (answer?.status === 200 && (status === "success" || status === "failed")) statuses.set(id, status);
        }
        return statuses.size === jobIds.length ? true : undefined;
      },
      timeoutMs,
      250,
    );
  } catch {
    const open = jobIds.filter((id) => !statuses.has(id));
    throw new Error(
      `${open.length} of ${jobIds.length} accepted runs did not end within ${timeoutMs / 1000} s: ${open.slice(0, 5).join(", ")}`,
    );
  }
  return statuses;
}

/** A call's turn: how many assistant turns its conversation already holds. */
function turnOf(entry: JournalEntry): number {
  const messages = ((entry.body as { messages?: { role: string }[] } | null)?.messages ?? []) as { role: string }[];
  return messages.filter((m) => m.role === "assistant").length;
}

/** Every run in the database with its steps and its LLM calls from `journal`. */
async function auditRuns(ds: DataSource, journal: JournalEntry[]): Promise<AuditedRun[]> {
  const runs = await sql<{ id: string; task: string; status: string; attempts: number }>(
    ds,
    "SELECT id, request->>'task' AS task, status, attempts FROM runs WHERE kind = 'agent'",
  );
  const steps = await sql<{ run_id: string; step_key: string; seq: number; finished_at: Date; status: string }>(
    ds,
    "SELECT run_id, step_key, seq, finished_at, status FROM run_steps ORDER BY seq",
  );
  const texts = journal.map((entry) => ({
    entry,
    text: JSON.stringify((entry.body as { messages?: unknown } | null)?.messages ?? ""),
  }));
  return runs.map((run) => ({
    ...run,
    steps: steps.filter((s) => s.run_id === run.id),
    calls: texts
      .filter((t) => t.text.includes(run.task))
      .map(({ entry }) => ({ turn: turnOf(entry), at: new Date(entry.at), status: entry.status })),
  }));
}

/**
 * Each run ran once: its steps are numbered without gaps, no LLM call was made for a turn after
 * that turn's call had finished (a stored step is replayed, never asked again), and the only
 * extra calls are at most one per extra attempt (the call a crash cut short, billed as an
 * `interrupted` step of its own when it had reached the provider).
 */
function expectRanOnce(run: AuditedRun): void {
  const label = `run ${run.id} (${run.task}, ${run.attempts} attempt(s))`;
  expect(
    run.steps.map((s) => s.seq),
    `${label}: step numbers`,
  ).to.deep.equal(run.steps.map((_, i) => i));
  const finished = run.steps.filter((s) => s.status === "finished");
  const interrupted = run.steps.filter((s) => s.status === "interrupted");
  expect(interrupted.length, `${label}: calls billed as interrupted`).to.be.at.most(run.attempts - 1);
  for (const step of finished) {
    const turn = Number(step.step_key.split("#").pop()); // an agent's steps are `agent#<turn>`
    const late = run.calls.filter((c) => c.turn === turn && c.at > new Date(step.finished_at));
    expect(late, `${label}: LLM calls for turn ${turn} after its call had finished`).to.deep.equal([]);
    expect(
      run.calls.some((c) => c.turn === turn),
      `${label}: no LLM call for stored turn ${turn}`,
    ).to.equal(true);
  }
  expect(run.calls.length, `${label}: LLM calls vs stored steps`).to.be.within(
    finished.length + interrupted.length,
    finished.length + Math.max(0, run.attempts - 1),
  );
}

/** Waits until at least `count` runs have stored a step: they are in flight, between LLM calls. */
export async function untilRunsInFlight(ds: DataSource, count: number): Promise<void> {
  await eventually(
    async () => {
      const [{ n }] = await sql<{ n: number }>(ds, "SELECT count(DISTINCT run_id)::int AS n FROM run_steps");
      return n >= count ? true : undefined;
    },
    60_000,
    50,
  );
}

/**
 * No run lost, none run twice: every request of the load was answered with a job id (200, or a
 * run-level 500/504), every job ends as `success`, and each run succeeded having made each LLM
 * call once. Returns the audited runs for further checks.
 */
export async function expectEveryRunSucceededOnce(stack: FaultStack, outcomes: LoadOutcome[]): Promise<AuditedRun[]> {
  for (const o of outcomes)
    expect([200, 500, 504], `${o.marker}: ${JSON.stringify(o.body)} ${o.error ?? ""}`).to.include(o.status);
  const accepted = acceptedJobIds(outcomes);
  expect(accepted).to.have.length(outcomes.length);
  const statuses = await finalJobStatuses(stack.apiUrl, stack.key, accepted);
  expect(
    [...statuses.values()].filter((s) => s !== "success"),
    "runs that did not succeed",
  ).to.deep.equal([]);

  const markers = new Set(outcomes.map((o) => o.marker));
  const runs = (await auditRuns(stack.ds, await stack.journal())).filter((r) => markers.has(r.task));
  expect(runs).to.have.length(outcomes.length);
  for (const run of runs) {
    expect(run.status, `run ${run.id}`).to.equal("succeeded");
    expectRanOnce(run);
  }
  return runs;
}
