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
