/**
 * Well-known model ids per provider, listed by `GET /v1/models/available`. Data only: whether a
 * model can be used right now is decided by the provider registry (`resolveModel`). Models of
 * providers without a name pattern carry their `provider/` routing prefix. Any other model id a
 * provider serves works too; this list is what clients are shown, not what is allowed.
 */
export interface CatalogModel {
  id: string;
  provider: string;
}

const byProvider: Record<string, string[]> = {
  openai: [
    "gpt-4.1",
    "gpt-4.1-mini",
    "gpt-4.1-nano",
    "gpt-4o",
    "gpt-4o-mini",
    "o3",
    "o3-mini",
    "o4-mini",
    "gpt-5",
    "gpt-5-mini",
    "gpt-5-nano",
  ],
  anthropic: [
    "claude-sonnet-4-20250514",
    "claude-opus-4-20250514",
    "claude-opus-4-1-20250805",
    "claude-3-7-sonnet-20250219",
    "claude-3-5-haiku-20241022",
  ],
  gemini: ["gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.0-flash"],
  xai: ["grok-4", "grok-3", "grok-3-mini"],
  deepseek: ["deepseek-chat", "deepseek-reasoner"],
  mistral: ["mistral-large-latest", "mistral-medium-latest", "mistral-small-latest", "codestral-latest"],
  groq: ["groq/llama-3.3-70b-versatile", "groq/llama-3.1-8b-instant", "groq/openai/gpt-oss-120b"],
  openrouter: [
    "openrouter/anthropic/claude-sonnet-4",
    "openrouter/openai/gpt-4o",
    "openrouter/meta-llama/llama-3.3-70b-instruct",
  ],
  together: ["together/meta-llama/Llama-3.3-70B-Instruct-Turbo", "together/deepseek-ai/DeepSeek-V3"],
};

/** The catalogue in listing order (provider by provider). */
export const MODEL_CATALOG: readonly CatalogModel[] = Object.entries(byProvider).flatMap(([provider, ids]) =>
  ids.map((id) => ({ id, provider })),
);

/**
 * The most output tokens one request may ask of a model, as its provider documents it: every
 * catalogue model whose limit is published, and older models still served whose limit is below
 * the agents' default of 8,192 (where asking for the default is refused).
 */
const MAX_OUTPUT_TOKENS: Record<string, number> = {
  "gpt-4.1": 32_768,
  "gpt-4.1-mini": 32_768,
  "gpt-4.1-nano": 32_768,
  "gpt-4o": 16_384,
  "gpt-4o-mini": 16_384,
  o3: 100_000,
  "o3-mini": 100_000,
  "o4-mini": 100_000,
  "gpt-5": 128_000,
  "gpt-5-mini": 128_000,
  "gpt-5-nano": 128_000,
  "gpt-4-turbo": 4_096,
  "gpt-3.5-turbo": 4_096,
  "claude-sonnet-4-20250514": 64_000,
  "claude-opus-4-20250514": 32_000,
  "claude-opus-4-1-20250805": 32_000,
  "claude-3-7-sonnet-20250219": 64_000,
  "claude-3-5-haiku-20241022": 8_192,
  "claude-3-haiku-20240307": 4_096,
  "gemini-2.5-pro": 65_536,
  "gemini-2.5-flash": 65_536,
  "gemini-2.0-flash": 8_192,
  "deepseek-chat": 8_192,
  "deepseek-reasoner": 65_536,
  "groq/llama-3.3-70b-versatile": 32_768,
  "groq/llama-3.1-8b-instant": 131_072,
  "groq/openai/gpt-oss-120b": 65_536,
};

/**
 * The most output tokens `model` may be asked for, when known. A routing prefix the table does
 * not name is taken off (`openai/gpt-4o`, `openrouter/openai/gpt-4o` → `gpt-4o`), since the rest
 * still names the provider's model.
 */
function maxOutputTokens(model: string): number | undefined {
  for (let name = model.trim().toLowerCase(); ; name = name.slice(name.indexOf("/") + 1)) {
    if (Object.hasOwn(MAX_OUTPUT_TOKENS, name)) return MAX_OUTPUT_TOKENS[name];
    if (!name.includes("/")) return undefined;
  }
}

/** `wanted` output tokens, or the model's limit when it allows fewer (`maxOutputTokens`). */
export function outputTokensFor(model: string, wanted: number): number {
  return Math.min(wanted, maxOutputTokens(model) ?? wanted);
}
