import type { DataSource } from "typeorm";
import { usageReport } from "../runs/usage";
import { formatAmount, pageDate, type PageDate } from "./page-format";

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

/** What the API-keys page shows of the account's usage, and each key's last use by key id. */
export interface KeysPageUsage {
  days: number;
  lines: UsageLine[];
  total: { calls: number; tokens: string; cost: string };
  lastUse: Map<string, PageDate>;
}

const tokens = (input: number, output: number) => `${formatAmount(input)} in / ${formatAmount(output)} out`;
const dollars = (cost: number) => `$${formatAmount(cost)}`;

/** The account's usage over the page's window, newest day first, from the same report as `GET /v1/usage`. */
export async function keysPageUsage(ds: DataSource, userId: string): Promise<KeysPageUsage> {
  const report = await usageReport(ds, { userId }, PAGE_USAGE_DAYS);
  const lastUse = new Map<string, PageDate>();
  for (const key of report.by_key)
    if (key.key_id && key.last_used_at) lastUse.set(key.key_id, pageDate(key.last_used_at));
  return {
    days: report.days,
    lines: report.by_day
      .map((d) => ({
        date: d.date,
        model: d.model,
        calls: d.calls,
        tokens: tokens(d.input_tokens, d.output_tokens),
        cost: dollars(d.cost),
      }))
      .reverse(),
    total: {
      calls: report.totals.calls,
      tokens: tokens(report.totals.input_tokens, report.totals.output_tokens),
      cost: dollars(report.totals.cost),
    },
    lastUse,
  };
}
