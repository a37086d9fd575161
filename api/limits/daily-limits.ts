import { findUsage, incrementBelowLimit, type UsageCounts } from "../../shared/db/daily-usage-store";
import type { QuotaColumn } from "../../shared/db/entities/daily-usage.entity";
import type { Queryable } from "../../shared/db/sql";
import { nextUtcMidnight, utcDay } from "../../shared/limits/utc-day";
import { PlatformError } from "../platform-error";

// The day a launch counts against is recorded with it (see `create-prompt.ts`).

/** The per-user, per-UTC-day counters (`currentUsage` / `limits` of the daily-limit 429, docs/marketplace.md). */
export type DailyCounter = "paidPrompts" | "paidAgents" | "freeContent";

export type DailyLimits = Record<DailyCounter, number>;

export interface DailyUsage extends DailyLimits {
  /** The UTC day counted, `YYYY-MM-DD`. */
  date: string;
}

const COLUMNS: Record<DailyCounter, QuotaColumn> = {
  paidPrompts: "paid_prompts",
  paidAgents: "paid_agents",
  freeContent: "free_content",
};

/** The `daily_usage` column of a counter (recorded with a launch whose failure gives its count back). */
export function counterColumn(counter: DailyCounter): QuotaColumn {
  return COLUMNS[counter];
}

function usageOf(row: UsageCounts | null, date: string): DailyUsage {
  return {
    paidPrompts: row?.paid_prompts ?? 0,
    paidAgents: row?.paid_agents ?? 0,
    freeContent: row?.free_content ?? 0,
    date,
  };
}

/** A user's counters for the UTC day of `now` (zeros when nothing was created yet). */
export async function readDailyUsage(db: Queryable, userId: string, now = new Date()): Promise<DailyUsage> {
  const date = utcDay(now);
  return usageOf(await findUsage(db, userId, date), date);
}

/** The platform's daily-limit 429: `{error: "Daily limit exceeded", message, currentUsage, limits, resetTime, status_code}`. */
function dailyLimitExceeded(
  counter: DailyCounter,
  usage: DailyUsage,
  limits: DailyLimits,
  now = new Date(),
): PlatformError {
  const resetTime = nextUtcMidnight(now).toISOString();
  return new PlatformError(
    429,
    "Daily limit exceeded",
    `You have reached today's limit of ${limits[counter]} for ${counter}; it resets at ${resetTime}`,
    {
      currentUsage: usage,
      limits: { paidPrompts: limits.paidPrompts, paidAgents: limits.paidAgents, freeContent: limits.freeContent },
      resetTime,
    },
    "",
  );
}

/**
 * A cheap early refusal (before any expensive work) when the counter is already at its limit.
 * It decides nothing: `consumeDailyQuota` is the check that holds under concurrency.
 */
export async function assertDailyQuotaLeft(
  db: Queryable,
  userId: string,
  counter: DailyCounter,
  limits: DailyLimits,
  now = new Date(),
): Promise<void> {
  const usage = await readDailyUsage(db, userId, now);
  if (usage[counter] >= limits[counter]) throw dailyLimitExceeded(counter, usage, limits, now);
}

/**
 * Counts one creation against the user's limit for today, or throws the 429. Call it inside the
 * transaction that inserts what is created, so a failed insert gives the count back; the
 * conditional increment (see `incrementBelowLimit`) lets exactly `limit` concurrent callers through.
 */
export async function consumeDailyQuota(
  db: Queryable,
  userId: string,
  counter: DailyCounter,
  limits: DailyLimits,
  now = new Date(),
): Promise<DailyUsage> {
  const date = utcDay(now);
  const row = await incrementBelowLimit(db, userId, date, COLUMNS[counter], limits[counter]);
  if (!row) throw dailyLimitExceeded(counter, await readDailyUsage(db, userId, now), limits, now);
  return usageOf(row, date);
}
