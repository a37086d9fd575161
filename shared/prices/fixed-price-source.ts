import type { PriceQuote, PriceSource } from "./price-source";

/** A set price (`PRICE_FIXED_USD`) for offline use: always current. */
export class FixedPriceSource implements PriceSource {
  constructor(private readonly usd: number) {}

  async usdPrice(): Promise<PriceQuote> {
    return { usd: this.usd, asOf: new Date() };
  }
}
