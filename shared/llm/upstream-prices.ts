import { calcPrice, type PriceCalculation } from "@pydantic/genai-prices";

/**
 * What the upstream provider charges for a call, from the price data bundled with
 * `@pydantic/genai-prices` (offline, no network). Recorded for operators beside the cost we bill,
 * which comes from our own pricing table (`pricing.ts`), never from this.
 */

/** Our provider names → genai-prices provider ids; `null` for local servers, which cost nothing upstream. */
const PROVIDER_IDS = new Map<string, string | null>(
  Object.entries({
    openai: "openai",
    anthropic: "anthropic",
    gemini: "google",
    google: "google",
    xai: "x-ai",
    grok: "x-ai",
    deepseek: "deepseek",
    mistral: "mistral",
    groq: "groq",
    openrouter: "openrouter",
    together: "together",
    together_ai: "together",
    ollama: null,
    vllm: null,
    hosted_vllm: null,
    lmstudio: null,
    lm_studio: null,
  }),
);

/**
 * Splits a leading routing prefix (`groq/…`, `openrouter/…`) off the model id when it names a
 * provider we know. Only one prefix goes: `openrouter/anthropic/claude-sonnet-4` keeps
 * `anthropic/claude-sonnet-4`, which is OpenRouter's own model id.
 */
function splitPrefix(model: string): { prefix: string | null; model: string } {
  const slash = model.indexOf("/");
  if (slash <= 0) return { prefix: null, model };
  const prefix = model.slice(0, slash).toLowerCase();
  return PROVIDER_IDS.has(prefix) ? { prefix, model: model.slice(slash + 1) } : { prefix: null, model };
}

/**
 * The upstream provider's price in dollars of `inputTokens` + `outputTokens` on `model`, or null
 * when the model or provider is not in the price data (or is a local server). `provider` is our
 * provider name (`openai`, `anthropic`, `gemini`, …) or a genai-prices provider id; for `gateway`
 * (or an empty name) the provider is taken from the model's `provider/` prefix, else guessed from
 * the model id by the price data's own matching. Never throws.
 */
export function upstreamCost(
  model: string,
  provider: string,
  inputTokens: number,
  outputTokens: number,
): number | null {
  try {
    if (typeof model !== "string" || !model.trim()) return null;
    if (![inputTokens, outputTokens].every((n) => Number.isFinite(n) && n >= 0)) return null;
    const split = splitPrefix(model.trim());
    const name = (provider ?? "").trim().toLowerCase();
    const guess = name === "" || name === "gateway";
    const ours = guess ? split.prefix : name;
    if (ours !== null && PROVIDER_IDS.get(ours) === null) return null; // local server
    // A name outside our table goes to the price data as-is (it knows e.g. `azure`, `bedrock`).
    const providerId = ours === null ? undefined : (PROVIDER_IDS.get(ours) ?? ours);
    return priced(split.model, providerId, inputTokens, outputTokens);
  } catch {
    return null;
  }
}

/**
 * What a (model, provider) pair's price comes to, cached once known. `flat`: one constant rate per
 * million input and output tokens, which the price data's own arithmetic (`rate * tokens / 1e6`
 * per direction, summed) reproduces exactly; `live`: rates that depend on the call's tokens (tiers)
 * or its time (dated or time-of-day prices), priced by the price data on every call.
 */
type CachedPrice = { kind: "none" } | { kind: "flat"; input: number; output: number } | { kind: "live" };

/**
 * Prices looked up so far, by provider id and model id. The lookup (matching the model id against
 * the price data's patterns) was ~25 µs of each call; the pairs a deployment uses are few, and the
 * bundled price data never changes while the process runs. Bounded all the same: a model id is
 * client text.
 */
const cache = new Map<string, CachedPrice>();
const CACHE_MAX = 1_000;

/** The rates of a price that holds whatever the call's tokens and time, or null. */
function flatRates(result: PriceCalculation): { input: number; output: number } | null {
  if (Array.isArray(result.model.prices)) return null; // dated or time-of-day prices
  let input = 0;
  let output = 0;
  for (const [key, rate] of Object.entries(result.model_price)) {
    if (rate === undefined) continue;
    if (typeof rate !== "number") return null; // tiers by the prompt's size
    // A per-request price is charged on every call, whatever its tokens; other units (cached
    // tokens, audio, searches) are zero in a call priced by its input and output tokens alone.
    if (key.startsWith("requests")) return null;
    if (key === "input_mtok") input = rate;
    else if (key === "output_mtok") output = rate;
  }
  return { input, output };
}

/** The price data's total for the call, through the cache. */
function priced(
  model: string,
  providerId: string | undefined,
  inputTokens: number,
  outputTokens: number,
): number | null {
  const key = `${providerId ?? ""}\u0000${model}`;
  const known = cache.get(key);
  if (known?.kind === "none") return null;
  if (known?.kind === "flat") return (known.input * inputTokens) / 1e6 + (known.output * outputTokens) / 1e6;
  const result = calcPrice(
    { input_tokens: inputTokens, output_tokens: outputTokens },
    model,
    providerId ? { providerId } : {},
  );
  if (!known && cache.size < CACHE_MAX) {
    // Whether a model is in the price data does not depend on the call; its rates may (flatRates).
    const rates = result ? flatRates(result) : null;
    cache.set(key, !result ? { kind: "none" } : rates ? { kind: "flat", ...rates } : { kind: "live" });
  }
  const total = result?.total_price;
  return typeof total === "number" && Number.isFinite(total) ? total : null;
}
