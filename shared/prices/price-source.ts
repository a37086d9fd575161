import { AppError } from "../errors";

/** A USD price of the network currency, and how old it is. */
export interface PriceQuote {
  /** US dollars for one unit of the currency (e.g. one SOL). */
  usd: number;
  /** When the source says the price was current. */
  asOf: Date;
}

/** Where USD prices of the network currency come from. */
export interface PriceSource {
  /** A price no older than the configured maximum age; throws `PriceUnavailableError` otherwise. */
  usdPrice(): Promise<PriceQuote>;
}

/** No price recent enough is available: nothing priced may be stored (503). */
export class PriceUnavailableError extends AppError {
  constructor(message: string) {
    super(503, "PRICE_UNAVAILABLE", message);
  }
}
