import { config, type Config } from "../config";
import { BadRequestError } from "../errors";

/** Where one model's calls go. */
export interface ResolvedModel {
  provider: string;
  /** The model id sent to the provider (a routing prefix removed). */
  model: string;
  baseUrl: string;
  apiKey: string;
}

interface ProviderRule {
  provider: string;
  /** Environment variable that holds the provider's key, or null for local servers. */
  keyVariable: string | null;
  /** Model-name patterns that belong to this provider when no prefix names it. */
  patterns: RegExp[];
}

/** Known providers, every one reached through an OpenAI-compatible endpoint. */
const PROVIDERS: ProviderRule[] = [
  {
    provider: "openai",
    keyVariable: "OPENAI_API_KEY",
    patterns: [/^gpt-/, /^o[134](-|$)/, /^chatgpt-/, /^text-embedding-/],
  },
  { provider: "anthropic", keyVariable: "ANTHROPIC_API_KEY", patterns: [/^claude-/] },
  { provider: "gemini", keyVariable: "GEMINI_API_KEY", patterns: [/^gemini-/, /^gemma-/] },
  { provider: "xai", keyVariable: "XAI_API_KEY", patterns: [/^grok-/] },
  { provider: "deepseek", keyVariable: "DEEPSEEK_API_KEY", patterns: [/^deepseek-/] },
  {
    provider: "mistral",
    keyVariable: "MISTRAL_API_KEY",
    patterns: [/^(mistral|codestral|magistral|pixtral|ministral|open-mistral)-/],
  },
  { provider: "groq", keyVariable: "GROQ_API_KEY", patterns: [] },
  { provider: "openrouter", keyVariable: "OPENROUTER_API_KEY", patterns: [] },
  { provider: "together", keyVariable: "TOGETHER_API_KEY", patterns: [] },
  { provider: "ollama", keyVariable: null, patterns: [] },
  { provider: "vllm", keyVariable: null, patterns: [] },
  { provider: "lmstudio", keyVariable: null, patterns: [] },
];

const PREFIX_ALIASES: Record<string, string> = {
  google: "gemini",
  lm_studio: "lmstudio",
  hosted_vllm: "vllm",
  together_ai: "together",
  grok: "xai",
};

/** Providers the service knows about (for `/v1/models/available` and docs). */
const providerNames = PROVIDERS.map((p) => p.provider);

/** The provider rule a model name names: its `provider/` prefix first, then its name patterns. */
function ruleOf(modelName: string): { rule: ProviderRule | undefined; byPrefix: boolean } {
  const slash = modelName.indexOf("/");
  const prefix = slash > 0 ? modelName.slice(0, slash).toLowerCase() : "";
  const byPrefix = PROVIDERS.find((p) => p.provider === (PREFIX_ALIASES[prefix] ?? prefix));
  if (byPrefix) return { rule: byPrefix, byPrefix: true };
  return { rule: PROVIDERS.find((p) => p.patterns.some((re) => re.test(modelName.toLowerCase()))), byPrefix: false };
}

/**
 * The provider a model name belongs to by the naming rules alone (a gateway in front or not, keys
 * or not), or null when the name tells none: what decides the provider options a call may carry.
 */
export function providerOfModel(modelName: string): string | null {
  return ruleOf(modelName).rule?.provider ?? null;
}

/**
 * Maps a model name to its provider: a `provider/` prefix first, then name patterns. With an LLM
 * gateway configured (`LLM_BASE_URL`) every model goes to the gateway under its full name.
 * Throws a 400 naming the variable to set when the provider has no key.
 */
export function resolveModel(modelName: string, cfg: Config = config): ResolvedModel {
  if (cfg.llm.gateway) {
    return { provider: "gateway", model: modelName, baseUrl: cfg.llm.gateway.baseUrl, apiKey: cfg.llm.gateway.apiKey };
  }
  const { rule, byPrefix } = ruleOf(modelName);
  if (!rule) {
    throw new BadRequestError(
      `Unknown model '${modelName}': prefix it with a provider (${providerNames.join(", ")}), e.g. 'groq/${modelName}'`,
      {},
      "UNKNOWN_MODEL",
    );
  }
  const settings = cfg.llm.providers[rule.provider];
  if (rule.keyVariable && !settings.apiKey) {
    throw new BadRequestError(
      `Model '${modelName}' is served by ${rule.provider}, which has no API key configured: set ${rule.keyVariable}`,
      {},
      "PROVIDER_NOT_CONFIGURED",
    );
  }
  return {
    provider: rule.provider,
    model: byPrefix ? modelName.slice(modelName.indexOf("/") + 1) : modelName,
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
  };
}

/** Whether any hosted provider has a key (or a gateway is set): otherwise development uses the simulator. */
export function hasConfiguredProvider(cfg: Config = config): boolean {
  if (cfg.llm.gateway) return true;
  return PROVIDERS.some((p) => p.keyVariable !== null && Boolean(cfg.llm.providers[p.provider]?.apiKey));
}
