import { EntitySchema } from "typeorm";

/** A daily counter's column. */
export type QuotaColumn = "paid_prompts" | "paid_agents" | "free_content";

/** A row of `daily_usage`: what a user created on one UTC day, counted against the daily limits. */
export interface DailyUsageRow {
  user_id: string;
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  paid_prompts: number;
  paid_agents: number;
  free_content: number;
}

export const DailyUsageEntity = new EntitySchema<DailyUsageRow>({
  name: "DailyUsage",
  tableName: "daily_usage",
  columns: {
    user_id: { type: "uuid", primary: true },
    day: { type: "date", primary: true },
    paid_prompts: { type: "int", default: 0 },
    paid_agents: { type: "int", default: 0 },
    free_content: { type: "int", default: 0 },
  },
});
