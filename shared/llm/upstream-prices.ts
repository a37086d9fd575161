import { calcPrice } from "@pydantic/genai-prices";

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
    const result = calcPrice(
      { input_tokens: inputTokens, output_tokens: outputTokens },
      split.model,
      providerId ? { providerId } : {},
    );
    const total = result?.total_price;
    return typeof total === "number" && Number.isFinite(total) ? total : null;
  } catch {
    return null;
  }
}
