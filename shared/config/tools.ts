import Joi from "joi";
import { count, defineDomain, money, ms, num, oneOf, optionalString, str } from "./setting";

/** An http(s) base URL, or empty for "not configured". */
const baseUrl = Joi.string()
  .uri({ scheme: ["http", "https"] })
  .allow("")
  .default("");

/**
 * The built-in tools agents may be given with `tools_enabled` (`auto_search`, `web_scraper`):
 * the search provider the operator pays for, the scraper's limits, and the flat fee of each.
 */
export const tools = defineDomain(
  "Built-in tools",
  {
    SEARCH_PROVIDER_URL: str(
      baseUrl,
      "base URL of a search provider speaking Exa's `POST /search`; empty: `auto_search` and advanced research are not offered",
    ),
    SEARCH_PROVIDER_API_KEY: str(
      optionalString.default(""),
      "the search provider's key, sent as `x-api-key` (a secret: never logged or returned)",
    ),
    SEARCH_TIMEOUT_MS: num(ms.default(20_000), "longest wait for one search"),
    SEARCH_NUM_RESULTS: num(count.max(100).default(5), "results one `auto_search` call asks for"),
    SEARCH_MAX_CHARACTERS: num(count.max(100_000).default(2_000), "text characters asked for per search result"),
    WEB_SCRAPER: oneOf(
      ["on", "off"],
      "on",
      "`on` offers `web_scraper` (pages fetched under the egress policy), `off` withdraws it",
    ),
    SCRAPER_TIMEOUT_MS: num(ms.default(15_000), "longest one page fetch may take, redirects included"),
    SCRAPER_MAX_BYTES: num(count.default(2_000_000), "largest page body the scraper reads (bigger pages are refused)"),
    TOOL_RESULT_MAX_CHARS: num(count.default(20_000), "longest text a built-in tool hands back to the model"),
    TOOL_MAX_CALLS_PER_RUN: num(count.max(1_000).default(10), "built-in tool calls one run may make"),
    PRICE_PER_SEARCH: num(money.default(0.04), "dollars per request that enables `auto_search` (flat)"),
    PRICE_PER_SCRAPE: num(money.default(0.15), "dollars per request that enables `web_scraper` (flat)"),
  },
  (env) => ({
    builtinTools: {
      search: {
        url: env("SEARCH_PROVIDER_URL"),
        apiKey: env("SEARCH_PROVIDER_API_KEY"),
        timeoutMs: env("SEARCH_TIMEOUT_MS"),
        numResults: env("SEARCH_NUM_RESULTS"),
        maxCharacters: env("SEARCH_MAX_CHARACTERS"),
      },
      scraper: {
        enabled: env("WEB_SCRAPER") === "on",
        timeoutMs: env("SCRAPER_TIMEOUT_MS"),
        maxBytes: env("SCRAPER_MAX_BYTES"),
      },
      resultMaxChars: env("TOOL_RESULT_MAX_CHARS"),
      maxCallsPerRun: env("TOOL_MAX_CALLS_PER_RUN"),
      fees: { auto_search: env("PRICE_PER_SEARCH"), web_scraper: env("PRICE_PER_SCRAPE") },
    },
  }),
);
