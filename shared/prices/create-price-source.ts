import { config } from "../config";
import { FixedPriceSource } from "./fixed-price-source";
import { HttpPriceSource } from "./http-price-source";
import type { PriceSource } from "./price-source";

export type PriceSettings = typeof config.prices;

/** The configured price source: the fixed `PRICE_FIXED_USD` when set, else the HTTP source. */
export function createPriceSource(settings: PriceSettings = config.prices): PriceSource {
  return settings.fixedUsd !== null ? new FixedPriceSource(settings.fixedUsd) : new HttpPriceSource(settings);
}
