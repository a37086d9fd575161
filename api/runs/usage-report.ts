import type { DataSource } from "typeorm";
import { completionsByDay } from "../../shared/db/completion-count-store";
import { usageOfUser } from "../../shared/db/usage-store";

/** What `GET /v1/usage/report`'s validated query asks for. */
export interface UsageReportQuery {
  period: "day" | "week" | "month";
  start_date?: string;
  end_date?: string;
}

/** Step-ledger sums. */
interface Sums {
  llm_calls: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  total_cost: number;
}
type ModelSums = Sums & { model: string };
type CountedSums = Sums & { request_count: number };
type DayEntry = CountedSums & { day: string; by_model: ModelSums[] };

/** `GET /v1/usage/report`'s body. */
export interface UsageReport {
  success: true;
  period: "day" | "week" | "month" | "custom";
  start_date: string;
  end_date: string;
  results: DayEntry[];
  by_model: ModelSums[];
  by_kind: (CountedSums & { kind: string })[];
  totals: CountedSums;
  timestamp: string;
}

const PERIOD_DAYS = { day: 1, week: 7, month: 30 } as const;
const DAY_MS = 86_400_000;
const utcDay = (date: Date) => date.toISOString().slice(0, 10);
const zero = (): Sums => ({ llm_calls: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, total_cost: 0 });
const counted = (): CountedSums => ({ request_count: 0, ...zero() });

/** The window as whole UTC days, `[since, until)`: a custom one wins over `period`. */
function windowOf(query: UsageReportQuery, now: Date): { period: UsageReport["period"]; since: Date; until: Date } {
  if (query.start_date && query.end_date) {
    const since = new Date(`${query.start_date}T00:00:00Z`);
    return { period: "custom", since, until: new Date(Date.parse(`${query.end_date}T00:00:00Z`) + DAY_MS) };
  }
  const until = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return { period: query.period, since: new Date(until.getTime() - PERIOD_DAYS[query.period] * DAY_MS), until };
}

/** Adds `row` into `into`; cost is kept to nine decimals, so every breakdown sums to the same total. */
function add(into: Sums, row: Sums): void {
  into.llm_calls += row.llm_calls;
  into.input_tokens += row.input_tokens;
  into.output_tokens += row.output_tokens;
  into.total_tokens += row.total_tokens;
  into.total_cost = Math.round((into.total_cost + row.total_cost) * 1e9) / 1e9;
}

/** The map's entry for `id`, made (and kept) the first time. */
function entry<T>(map: Map<string, T>, id: string, make: () => T): T {
  let found = map.get(id);
  if (!found) map.set(id, (found = make()));
  return found;
}

/**
 * The caller's account's usage over whole UTC days: the step ledger (calls, tokens, cost, by the
 * day each call finished) and its completion calls (by the day each was queued), per day (only
 * days with activity, oldest first) with each day's models, per model and per kind of run over the
 * window, and in total. Every breakdown adds up to `totals`.
 */
export async function usageReportOf(
  ds: DataSource,
  owner: { userId: string },
  query: UsageReportQuery,
  now = new Date(),
): Promise<UsageReport> {
  const { period, since, until } = windowOf(query, now);
  const [steps, requests] = await Promise.all([
    usageOfUser(ds, owner.userId, since, until),
    completionsByDay(ds, owner.userId, since, until),
  ]);
  const days = new Map<string, DayEntry>();
  const dayModels = new Map<string, ModelSums>();
  const models = new Map<string, ModelSums>();
  const kinds = new Map<string, CountedSums & { kind: string }>();
  const totals = counted();
  const dayOf = (day: string) => entry(days, day, () => ({ day, ...counted(), by_model: [] }));
  const kindOf = (kind: string) => entry(kinds, kind, () => ({ kind, ...counted() }));
  for (const row of steps) {
    const sums: Sums = {
      llm_calls: row.calls,
      input_tokens: row.input_tokens,
      output_tokens: row.output_tokens,
      total_tokens: row.input_tokens + row.output_tokens,
      total_cost: row.cost,
    };
    const day = dayOf(row.day);
    const dayModel = entry(dayModels, `${row.day} ${row.model}`, () => {
      const made = { model: row.model, ...zero() };
      day.by_model.push(made);
      return made;
    });
    const model = entry(models, row.model, () => ({ model: row.model, ...zero() }));
    for (const into of [day, dayModel, model, kindOf(row.kind), totals]) add(into, sums);
  }
  for (const row of requests) {
    for (const into of [dayOf(row.day), kindOf(row.kind), totals]) into.request_count += row.requests;
  }
  const byName =
    <T>(key: (t: T) => string) =>
    (a: T, b: T) =>
      key(a).localeCompare(key(b));
  return {
    success: true,
    period,
    start_date: utcDay(since),
    end_date: utcDay(new Date(until.getTime() - DAY_MS)),
    results: [...days.values()].sort(byName((d) => d.day)),
    by_model: [...models.values()].sort(byName((m) => m.model)),
    by_kind: [...kinds.values()].sort(byName((k) => k.kind)),
    totals,
    timestamp: now.toISOString(),
  };
}
