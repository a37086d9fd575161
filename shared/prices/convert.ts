import type { PriceQuote } from "./price-source";

/** Lamports: SOL has 9 decimals, so finer amounts mean nothing on chain. */
const DECIMALS = 9;

/** A USD amount in the network currency at a quote, rounded to the currency's smallest unit. */
export function usdToCurrency(usd: number, quote: PriceQuote): number {
  return Number((usd / quote.usd).toFixed(DECIMALS));
}
