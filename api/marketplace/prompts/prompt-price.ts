import { PriceUnavailableError, usdToCurrency, type PriceSource } from "../../../shared/prices";
import { PlatformError } from "../../platform-error";

/** What a prompt costs: free prompts cost 0 in both currencies. */
export interface PromptPrice {
  price_usd: number;
  price: number;
}

/**
 * E7 rule 6: `price = price_usd / <SOL price in USD>`. Without a price younger than the maximum
 * age there is no conversion at all: 503 `Price unavailable`, and the caller stores nothing.
 */
export async function pricePrompt(
  prices: PriceSource,
  isFree: boolean,
  priceUsd: number | null | undefined,
): Promise<PromptPrice> {
  if (isFree || !priceUsd) return { price_usd: 0, price: 0 };
  try {
    return { price_usd: priceUsd, price: usdToCurrency(priceUsd, await prices.usdPrice()) };
  } catch (err) {
    if (!(err instanceof PriceUnavailableError)) throw err;
    throw new PlatformError(
      503,
      "Price unavailable",
      `${err.message}; nothing was stored, try again shortly`,
      {},
      "PRICE_UNAVAILABLE",
    );
  }
}
