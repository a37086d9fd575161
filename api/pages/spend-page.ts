import type { DataSource } from "typeorm";
import { addUsage, usageReportOver, zeroUsage, type UsageSums } from "../runs/usage";
import { formatDollars, formatTokens } from "./page-format";

/** Where the spend page lives. */
export const SPEND_PATH = "/platform/spend";

/** The window the page shows unless asked for another, and the longest it shows (as `GET /v1/usage`'s `days`). */
const DEFAULT_DAYS = 30;
export const MAX_SPEND_DAYS = 90;

const DAY_MS = 86_400_000;
const utcDay = (date: Date) => date.toISOString().slice(0, 10);
const midnight = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

/** A window of whole UTC days, both ends included (`YYYY-MM-DD`). */
export interface SpendWindow {
  start: string;
  end: string;
}

/** A `YYYY-MM-DD` that names a real day, as its UTC midnight; else null. */
function dayOf(value: unknown): Date | null {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || utcDay(date) !== value ? null : date;
}

/**
 * The window `?start=&end=` asks for (the last 30 days, today included, when both are left out),
 * or why it cannot be shown: each a real day, the start not after the end, the end not after
 * today, at most 90 days.
 */
export function spendWindowOf(query: Record<string, unknown>, now = new Date()): SpendWindow | { refused: string } {
  const today = midnight(now);
  const unknown = Object.keys(query).filter((name) => name !== "start" && name !== "end");
  if (unknown.length > 0) return { refused: `The spend page takes only start and end, not ${unknown.join(", ")}.` };
  const end = query.end === undefined || query.end === "" ? today : dayOf(query.end);
  const start =
    query.start === undefined || query.start === ""
      ? end && new Date(end.getTime() - (DEFAULT_DAYS - 1) * DAY_MS)
      : dayOf(query.start);
  if (!start || !end) return { refused: "Give start and end as real days, YYYY-MM-DD." };
  if (start > end) return { refused: "The start comes after the end." };
  if (end > today) return { refused: `The end is after today (${utcDay(today)}, UTC).` };
  if ((end.getTime() - start.getTime()) / DAY_MS + 1 > MAX_SPEND_DAYS)
    return { refused: `The page shows at most ${MAX_SPEND_DAYS} days at once.` };
  return { start: utcDay(start), end: utcDay(end) };
}

/** A line of a breakdown: what it counts, its figures, and its bar's length (its share of the largest cost). */
interface SpendLine {
  label: string;
  calls: number;
  tokens: string;
  cost: string;
  /** 0–100: the bar's length, the line's cost against the largest line's (a credit draws none). */
  bar: number;
}

const tokens = (s: UsageSums) => formatTokens(s.input_tokens, s.output_tokens);

function linesOf(entries: [string, UsageSums][]): SpendLine[] {
  const largest = Math.max(0, ...entries.map(([, s]) => s.cost));
  return entries.map(([label, s]) => ({
    label,
    calls: s.calls,
    tokens: tokens(s),
    cost: formatDollars(s.cost),
    bar: largest > 0 && s.cost > 0 ? Math.max(1, Math.round((s.cost / largest) * 100)) : 0,
  }));
}

/** Adds `row` into the sums under `label`, as the report adds its own. */
function addTo(map: Map<string, UsageSums>, label: string, row: UsageSums): void {
  const into = map.get(label) ?? zeroUsage();
  addUsage(into, row);
  map.set(label, into);
}

/**
 * The account's spend over the window by UTC day (every day of it), by key and by model, and in
 * total: the report `GET /v1/usage` answers (the same ledger and sums), over this window.
 */
export async function spendPageOf(ds: DataSource, userId: string, window: SpendWindow) {
  const since = new Date(`${window.start}T00:00:00Z`);
  const until = new Date(Date.parse(`${window.end}T00:00:00Z`) + DAY_MS);
  const report = await usageReportOver(ds, { userId }, { since, until });
  const byDay = new Map<string, UsageSums>();
  for (let day = since.getTime(); day < until.getTime(); day += DAY_MS)
    addTo(byDay, utcDay(new Date(day)), zeroUsage());
  const byModel = new Map<string, UsageSums>();
  for (const line of report.by_day) {
    addTo(byDay, line.date, line);
    addTo(byModel, line.model, line);
  }
  const byKey: [string, UsageSums][] = report.by_key.map((k) => [
    k.key_id ? `${k.name} (sk-…${k.last4})` : "a deleted key",
    k,
  ]);
  return {
    window,
    days: report.days,
    total: { calls: report.totals.calls, tokens: tokens(report.totals), cost: formatDollars(report.totals.cost) },
    byDay: linesOf([...byDay.entries()]),
    byKey: linesOf(byKey),
    byModel: linesOf([...byModel.entries()].sort(([a], [b]) => a.localeCompare(b))),
  };
}
