import { config, type Config } from "../config";

type Pricing = Config["pricing"];

/** Rounds a dollar amount to the 6 decimals the contract uses. */
export function roundCost(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Dollar cost of input and output tokens at the configured per-million rates. */
export function tokenCosts(inputTokens: number, outputTokens: number, pricing: Pricing = config.pricing) {
  return {
    inputCost: (inputTokens / 1e6) * pricing.inputPerMTok,
    outputCost: (outputTokens / 1e6) * pricing.outputPerMTok,
  };
}

/** Whether `at` falls in the night-time discount window of the configured time zone. */
export function isNightTime(at: Date, pricing: Pricing = config.pricing): boolean {
  const hour = Number(
    new Intl.DateTimeFormat("en-US", { timeZone: pricing.nightTimezone, hour: "numeric", hourCycle: "h23" }).format(at),
  );
  const { nightStartHour: start, nightEndHour: end } = pricing;
  return start > end ? hour >= start || hour < end : hour >= start && hour < end;
}
