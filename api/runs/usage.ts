import type { DataSource } from "typeorm";
import { keysLastUse, usageOfUser, type UsageRow } from "../../shared/db/usage-store";

/** Calls, tokens and cost summed over some of the step ledger. */
export interface UsageSums {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost: number;
}

/** One UTC day's spend on one model. */
interface DayUsage extends UsageSums {
  date: string;
  model: string;
}

/** One key's spend: its id, name and last four characters, never the key itself. */
interface KeyUsage extends UsageSums {
  key_id: string | null;
  name: string | null;
  last4: string | null;
  last_used_at: string | null;
}

/** `GET /v1/usage`'s body. */
export interface UsageReport {
  status: "success";
  days: number;
  /** The first UTC day counted (`YYYY-MM-DD`); the last is today. */
  from: string;
  to: string;
  totals: UsageSums & { total_tokens: number };
  by_day: DayUsage[];
  by_key: KeyUsage[];
  timestamp: string;
}

/** Sums of nothing: where adding starts. */
export const zeroUsage = (): UsageSums => ({ calls: 0, input_tokens: 0, output_tokens: 0, cost: 0 });

/** Adds a row's sums into `into` (cost kept to nine decimals, so sums of floats read cleanly). */
export function addUsage(into: UsageSums, row: UsageSums): void {
  into.calls += row.calls;
  into.input_tokens += row.input_tokens;
  into.output_tokens += row.output_tokens;
  into.cost = Math.round((into.cost + row.cost) * 1e9) / 1e9;
}

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** Midnight UTC `days - 1` days before `now`: a window of `days` UTC days ending today. */
function windowStart(now: Date, days: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
}

function byDay(rows: UsageRow[]): DayUsage[] {
  const days = new Map<string, DayUsage>();
  for (const row of rows) {
    const id = `${row.day} ${row.model}`;
    let entry = days.get(id);
    if (!entry) days.set(id, (entry = { date: row.day, model: row.model, ...zeroUsage() }));
    addUsage(entry, row);
  }
  return [...days.values()];
}

/** Where a usage report's window starts and ends: UTC midnights, `[since, until)`; no end is "up to now". */
export interface UsageWindow {
  since: Date;
  until?: Date;
}

/**
 * The caller's account's spend over the last `days` UTC days (today included), from the step
 * ledger (`run_steps`: every finished LLM or tool call): by day and model, by key (every key of
 * the account, with its last use, even when it spent nothing), and in total. Only the account's
 * own runs count, whichever of its keys made them.
 */
export function usageReport(
  ds: DataSource,
  owner: { userId: string },
  days: number,
  now = new Date(),
): Promise<UsageReport> {
  return usageReportOver(ds, owner, { since: windowStart(now, days) }, now);
}

/**
 * `usageReport` over any window of whole UTC days: the same ledger, sums and shape, so a page
 * that shows another window counts a charge exactly as `GET /v1/usage` does.
 */
export async function usageReportOver(
  ds: DataSource,
  owner: { userId: string },
  window: UsageWindow,
  now = new Date(),
): Promise<UsageReport> {
  const { since, until } = window;
  const [rows, keys] = await Promise.all([usageOfUser(ds, owner.userId, since, until), keysLastUse(ds, owner.userId)]);
  const totals = zeroUsage();
  const perKey = new Map<string | null, KeyUsage>(
    keys.map((k) => [
      k.id,
      {
        key_id: k.id,
        name: k.name,
        last4: k.last4,
        last_used_at: k.last_used_at ? new Date(k.last_used_at).toISOString() : null,
        ...zeroUsage(),
      },
    ]),
  );
  for (const row of rows) {
    addUsage(totals, row);
    let key = perKey.get(row.api_key_id);
    if (!key)
      perKey.set(row.api_key_id, (key = { key_id: null, name: null, last4: null, last_used_at: null, ...zeroUsage() }));
    addUsage(key, row);
  }
  const lastDay = until ? new Date(until.getTime() - 1) : now;
  return {
    status: "success",
    days: Math.round((Date.parse(utcDay(lastDay)) - since.getTime()) / 86_400_000) + 1,
    from: utcDay(since),
    to: utcDay(lastDay),
    totals: { ...totals, total_tokens: totals.input_tokens + totals.output_tokens },
    by_day: byDay(rows),
    by_key: [...perKey.values()],
    timestamp: now.toISOString(),
  };
}
