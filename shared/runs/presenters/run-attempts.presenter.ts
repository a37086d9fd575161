import type { Run } from "../../db/entities/run.entity";
import { PUBLIC_STATUS } from "./run-status";

/** One attempt of a retried run, as its job read lists it. */
export interface PresentedAttempt {
  attempt: number;
  /** When the retry that started it was asked (null for the first attempt). */
  retried_at: string | null;
  /** Who asked: `client` (`POST /v1/jobs/{job_id}/retry`) or `operator` (Bull Board); null for the first. */
  retried_by: "client" | "operator" | null;
  /** The model the retry gave the agents that had failed, and which agents; null when it gave none. */
  model_override: { model_name: string; agents: string[] } | null;
  started_at: string | null;
  finished_at: string | null;
  /** How it ended (`failed`…), or the run's state while it is the current attempt. */
  status: string;
  /** Its failure's code, when it failed. */
  code: string | null;
}

const iso = (at: string | Date | null | undefined) => (at ? new Date(at).toISOString() : null);

/**
 * A retried run's attempts, oldest first (null for a run never retried): each earlier one as its
 * `retries` entry kept it, the current one from the run's row. Entry `i` says how attempt `i + 1`
 * ended and how attempt `i + 2` was asked for.
 */
export function presentAttempts(run: Run): PresentedAttempt[] | null {
  if (run.retries.length === 0) return null;
  const asked = (n: number) => {
    const retry = n > 1 ? run.retries[n - 2] : null;
    return {
      attempt: n,
      retried_at: iso(retry?.retried_at),
      retried_by: retry ? (retry.by ?? "operator") : null,
      model_override: retry?.model ? { model_name: retry.model.model_name, agents: retry.model.agents } : null,
    };
  };
  const ended = run.retries.map((entry, i) => ({
    ...asked(i + 1),
    started_at: iso(entry.started_at),
    finished_at: iso(entry.finished_at),
    status: PUBLIC_STATUS[entry.status],
    code: entry.error?.code ?? null,
  }));
  const current = {
    ...asked(run.retries.length + 1),
    started_at: iso(run.started_at),
    finished_at: iso(run.finished_at),
    status: PUBLIC_STATUS[run.status],
    code: run.error?.code ?? null,
  };
  return [...ended, current];
}
