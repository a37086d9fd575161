export { createPriceSource, type PriceSettings } from "./create-price-source";
export { usdToCurrency } from "./convert";
export { FixedPriceSource } from "./fixed-price-source";
export { HttpPriceSource, type HttpPriceSettings } from "./http-price-source";
export { PriceUnavailableError, type PriceSource } from "./price-source";
