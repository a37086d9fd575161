import type { DataSource } from "typeorm";
import { usageReport } from "../runs/usage";
import { formatDollars, formatTokens, pageDate, type PageDate } from "./page-format";

/** How many UTC days the keys page's usage table covers. */
const PAGE_USAGE_DAYS = 30;

/** One row of the page's usage table: a UTC day and model, as `GET /v1/usage` counts them. */
interface UsageLine {
  date: string;
  model: string;
  calls: number;
  tokens: string;
  cost: string;
}

/** What the API-keys page shows of the account's usage, and each key's last use and spend by key id. */
export interface KeysPageUsage {
  days: number;
  lines: UsageLine[];
  total: { calls: number; tokens: string; cost: string };
  lastUse: Map<string, PageDate>;
  /** Each key's cost over the window, as `GET /v1/usage`'s `by_key` counts it. */
  spend: Map<string, string>;
}

/** The account's usage over the page's window, newest day first, from the same report as `GET /v1/usage`. */
export async function keysPageUsage(ds: DataSource, userId: string): Promise<KeysPageUsage> {
  const report = await usageReport(ds, { userId }, PAGE_USAGE_DAYS);
  const lastUse = new Map<string, PageDate>();
  const spend = new Map<string, string>();
  for (const key of report.by_key) {
    if (!key.key_id) continue;
    if (key.last_used_at) lastUse.set(key.key_id, pageDate(key.last_used_at));
    spend.set(key.key_id, formatDollars(key.cost));
  }
  return {
    days: report.days,
    lines: report.by_day
      .map((d) => ({
        date: d.date,
        model: d.model,
        calls: d.calls,
        tokens: formatTokens(d.input_tokens, d.output_tokens),
        cost: formatDollars(d.cost),
      }))
      .reverse(),
    total: {
      calls: report.totals.calls,
      tokens: formatTokens(report.totals.input_tokens, report.totals.output_tokens),
      cost: formatDollars(report.totals.cost),
    },
    lastUse,
    spend,
  };
}
