import { config, type Config } from "../config";

type Pricing = Config["pricing"];

/** Rounds a dollar amount to the 6 decimals the hosted API's costs use. */
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

/**
 * Dollar cost of an embeddings request's input tokens at the configured embedding price
 * (`PRICE_EMBEDDING_PER_MTOK`): the one definition its step, usage, budget check, metrics and bill use.
 */
export function embeddingCost(inputTokens: number, pricing: Pricing = config.pricing): number {
  return (inputTokens / 1e6) * pricing.embeddingPerMTok;
}

// Building a formatter loads the time zone's rules: about 3 % of a swarm worker's CPU when done
// for every run (docs/performance.md), so each zone's is built once.
const hourFormats = new Map<string, Intl.DateTimeFormat>();

function hourFormat(timeZone: string): Intl.DateTimeFormat {
  let format = hourFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" });
    hourFormats.set(timeZone, format);
  }
  return format;
}

/** Whether `at` falls in the night-time discount window of the configured time zone. */
export function isNightTime(at: Date, pricing: Pricing = config.pricing): boolean {
  const hour = Number(hourFormat(pricing.nightTimezone).format(at));
  const { nightStartHour: start, nightEndHour: end } = pricing;
  return start > end ? hour >= start || hour < end : hour >= start && hour < end;
}
