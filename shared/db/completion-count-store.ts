import type { DataSource } from "typeorm";
import { RUN_KINDS, takesOwnSteps, type RunKind } from "../runs/run-kind-catalog";
import { sql } from "./sql";

/**
 * Kinds of run that are not themselves a completion call, the ones that take no steps of their
 * own: a batch parent only holds its items (each item is a run of its own and counts once, as the
 * rate limits count it), and token launches are chain transactions, not completions.
 */
const NOT_COMPLETIONS: RunKind[] = RUN_KINDS.filter((kind) => !takesOwnSteps(kind));

/** An account's completion calls: in all, succeeded, and queued in the last day and week before `now`. */
export interface CompletionCounts {
  total: number;
  succeeded: number;
  last_24h: number;
  last_7d: number;
}

/** One pass over the account's runs (`runs_user_queued_idx`). */
export async function completionCounts(ds: DataSource, userId: string, now: Date): Promise<CompletionCounts> {
  const [row] = await sql<CompletionCounts>(
    ds,
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
            count(*) FILTER (WHERE queued_at > $3::timestamptz - interval '24 hours')::int AS last_24h,
            count(*) FILTER (WHERE queued_at > $3::timestamptz - interval '7 days')::int AS last_7d
       FROM runs WHERE user_id = $1 AND kind <> ALL($2::text[])`,
    [userId, NOT_COMPLETIONS, now],
  );
  return row;
}

/** Completion calls of one UTC day and run kind. */
export interface CompletionDayRow {
  /** `YYYY-MM-DD`, the UTC day the run was queued. */
  day: string;
  kind: RunKind;
  requests: number;
}

/** An account's completion calls queued in `[since, until)`, by UTC day and kind. */
export function completionsByDay(
  ds: DataSource,
  userId: string,
  since: Date,
  until: Date,
): Promise<CompletionDayRow[]> {
  return sql<CompletionDayRow>(
    ds,
    `SELECT to_char(queued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, kind, count(*)::int AS requests
       FROM runs WHERE user_id = $1 AND kind <> ALL($2::text[]) AND queued_at >= $3 AND queued_at < $4
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [userId, NOT_COMPLETIONS, since, until],
  );
}
