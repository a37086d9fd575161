import Joi from "joi";
import { defineDomain, ms, num, optionalNum, str } from "./setting";

/** USD → network currency (SOL) for prompt prices: where the rate comes from and how long it is trusted. */
export const exchangeRate = defineDomain(
  "Exchange rate",
  {
    PRICE_SOURCE_URL: str(
      Joi.string().uri().default("https://api.coingecko.com/api/v3/simple/price"),
      "CoinGecko-compatible price endpoint",
    ),
    PRICE_CURRENCY_ID: str(Joi.string().default("solana"), "the network currency's id at the price endpoint"),
    PRICE_FIXED_USD: optionalNum(
      Joi.number().positive(),
      "a fixed USD price of the network currency (offline use); no price source is asked",
    ),
    PRICE_CACHE_MS: num(ms.default(30_000), "how long a price is reused"),
    PRICE_MAX_AGE_MS: num(ms.default(600_000), "the oldest price ever used (older: 503 `Price unavailable`)"),
    PRICE_TIMEOUT_MS: num(ms.default(3_000), "longest wait for the price source"),
  },
  (env) => ({
    /** USD → network currency (SOL) for prompt prices. */
    prices: {
      sourceUrl: env("PRICE_SOURCE_URL"),
      currencyId: env("PRICE_CURRENCY_ID"),
      fixedUsd: env("PRICE_FIXED_USD") ?? null,
      cacheMs: env("PRICE_CACHE_MS"),
      maxAgeMs: env("PRICE_MAX_AGE_MS"),
      timeoutMs: env("PRICE_TIMEOUT_MS"),
    },
  }),
);
