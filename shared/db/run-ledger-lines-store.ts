import type { DataSource } from "typeorm";
import { sql } from "./sql";

/**
 * A run's bill line by line, read from the billing ledger: each LLM or tool call (`run_steps`,
 * in the order the calls finished), then each other charge, refund and discount (`run_charges`, in
 * the order they were made). Only reads.
 */

/** Where a line sits: its run's position in the list asked for, its section (0 calls, 1 charges) and its place. */
export interface LedgerLineKey {
  pos: number;
  section: number;
  n: number;
}

/** One line of a run's bill. */
export interface LedgerLine extends LedgerLineKey {
  job_id: string;
  type: "llm" | "tool" | "charge";
  agent: string | null;
  role: string | null;
  model: string | null;
  input_tokens: number;
  output_tokens: number;
  /** The line's share of the bill in millionths of a dollar (see `loadLedgerLines`), as text. */
  micros: string;
  status: string;
  charge: string | null;
  started_at: Date;
  finished_at: Date;
  /** The attempt of its run that stored it (1 unless the run was retried). */
  attempt: number;
  /** The run's current attempt: a later one than the line's took it from the record. */
  run_attempt: number;
}

/** Every line of the runs, priced, before any page is cut from them. */
const PRICED_LINES = `
  WITH targets AS (
    SELECT t.id, t.pos::int AS pos, r.job_id, jsonb_array_length(r.retries) + 1 AS run_attempt,
           round((COALESCE(r.usage ->> 'total_cost', r.usage -> 'billing_info' ->> 'total_cost'))::numeric * 1000000)
             AS bill_micros
      FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, pos) JOIN runs r ON r.id = t.id
  ), lines AS (
    SELECT s.run_id, 0 AS section, s.seq AS n, CASE WHEN s.role = 'tool' THEN 'tool' ELSE 'llm' END AS type,
           s.agent_name AS agent, s.role, s.model, s.input_tokens, s.output_tokens, s.cost, s.status,
           NULL::text AS charge, s.started_at, s.finished_at, s.attempt
      FROM run_steps s JOIN targets t ON t.id = s.run_id
    UNION ALL
    SELECT c.run_id, 1, (row_number() OVER (PARTITION BY c.run_id ORDER BY c.created_at, c.charge_key))::int,
           'charge', c.agent_name, NULL, NULL, 0, 0, c.amount, CASE WHEN c.amount < 0 THEN 'credited' ELSE 'charged' END,
           c.kind, c.created_at, c.created_at, c.attempt
      FROM run_charges c JOIN targets t ON t.id = c.run_id
  ), running AS (
    SELECT l.*, round((SUM(l.cost) OVER upto)::numeric * 1000000) AS upto_micros,
           row_number() OVER (PARTITION BY l.run_id ORDER BY l.section DESC, l.n DESC) = 1 AS last
      FROM lines l
    WINDOW upto AS (PARTITION BY l.run_id ORDER BY l.section, l.n ROWS UNBOUNDED PRECEDING)
  ), priced AS (
    SELECT t.pos, t.job_id, r.section, r.n, r.type, r.agent, r.role, r.model, r.input_tokens, r.output_tokens,
           r.status, r.charge, r.started_at, r.finished_at, r.attempt, t.run_attempt,
           r.upto_micros - COALESCE(lag(r.upto_micros) OVER (PARTITION BY r.run_id ORDER BY r.section, r.n), 0)
             + CASE WHEN r.last AND t.bill_micros IS NOT NULL THEN t.bill_micros - r.upto_micros ELSE 0 END AS micros
      FROM running r JOIN targets t ON t.id = r.run_id
  )`;

/**
 * A page of the lines of `runIds` (a run, or a batch's items in order), after `after`, and the sum
 * of every line. Each line's cost is in whole millionths of a dollar, the unit bills are rounded
 * to: the difference of the rounded running totals before and after it, so any run's lines add up
 * to its rounded ledger total exactly, and the last line of a run that has a bill takes up the
 * difference (at most a millionth) between that total and the bill the run stored. So the lines
 * of an ended run add up to the bill its answer, its job read and the usage reports show.
 */
export async function loadLedgerLines(
  ds: DataSource,
  runIds: string[],
  after: LedgerLineKey | null,
  limit: number,
): Promise<{ lines: LedgerLine[]; totalMicros: string; count: number }> {
  const [lines, [total]] = await Promise.all([
    sql<LedgerLine>(
      ds,
      `${PRICED_LINES}
       SELECT * FROM priced
        WHERE (pos, section, n) > ($2::int, $3::int, $4::int)
        ORDER BY pos, section, n
        LIMIT $5`,
      [runIds, after?.pos ?? 0, after?.section ?? 0, after?.n ?? -1, limit],
    ),
    sql<{ micros: string; count: number }>(
      ds,
      `${PRICED_LINES} SELECT COALESCE(SUM(micros), 0)::text AS micros, COUNT(*)::int AS count FROM priced`,
      [runIds],
    ),
  ]);
  return { lines, totalMicros: total.micros, count: total.count };
}
