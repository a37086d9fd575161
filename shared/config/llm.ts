import Joi from "joi";
import { defineDomain, ms, num, oneOf, optionalStr, optionalString, str } from "./setting";

/** Where one provider's OpenAI-compatible API answers, and the key it wants. */
export interface LlmProviderConfig {
  apiKey: string;
  baseUrl: string;
}

const url = Joi.string().uri();
const apiKey = (provider: string) => optionalStr(optionalString, `${provider} API key`);
const baseUrl = (provider: string, fallback: string) =>
  str(url.default(fallback), `${provider}'s OpenAI-compatible endpoint`);
const localServer = (server: string, fallback: string) =>
  str(url.default(fallback), `${server}'s OpenAI-compatible endpoint (a local model server; no key needed)`);

/** Default models, how LLM calls time out and retry, and the providers (or one gateway) they go to. */
export const llm = defineDomain(
  "LLM calls and providers",
  {
    DEFAULT_MODEL: str(Joi.string().default("gpt-4.1"), "model of an agent that names none"),
    DEFAULT_WORKER_MODEL: str(Joi.string().default("claude-sonnet-4-20250514"), "HeavySwarm's default worker model"),
    LLM_TIMEOUT_MS: num(ms.default(120_000), "per-call timeout"),
    LLM_MAX_RETRIES: num(
      Joi.number().integer().min(0).max(10).default(3),
      "retries of one LLM call on 429, 5xx, timeouts",
    ),
    LLM_RETRY_BASE_MS: num(ms.default(500), "retry backoff"),
    LLM_RETRY_MAX_DELAY_MS: num(ms.default(20_000), "the cap on any wait between retries, `Retry-After` included"),
    // Enough for every agent of the swarms one worker holds (2,000 jobs x 3 agents): a call that
    // waits for a slot waits a whole call's latency, so a cap below the burst sets a floor of
    // (calls / cap) x latency whatever the CPU (docs/scaling.md, "Scaling a worker").
    LLM_MAX_IN_FLIGHT: num(
      Joi.number().integer().min(1).max(100_000).default(6_000),
      "most LLM calls one worker process has in flight at once; later calls wait in order (a cancelled run stops waiting)",
    ),
    LLM_BASE_URL: optionalStr(
      url,
      "one OpenAI-compatible gateway for every model (LiteLLM, a company proxy, the simulator); `npm start` points it at the simulator when no provider key is set",
    ),
    LLM_API_KEY: optionalStr(optionalString, "the gateway's key"),
    LLM_SIMULATOR: oneOf(
      ["true", "false"],
      "false",
      "`true` when the LLM endpoint is the bundled simulator: `llm_args` may then carry its `sim_*` controls (refused otherwise); `npm start` sets it with the simulator",
    ),
    OPENAI_API_KEY: apiKey("OpenAI"),
    OPENAI_BASE_URL: baseUrl("OpenAI", "https://api.openai.com/v1"),
    ANTHROPIC_API_KEY: apiKey("Anthropic"),
    ANTHROPIC_BASE_URL: baseUrl("Anthropic", "https://api.anthropic.com/v1"),
    GROQ_API_KEY: apiKey("Groq"),
    GROQ_BASE_URL: baseUrl("Groq", "https://api.groq.com/openai/v1"),
    OPENROUTER_API_KEY: apiKey("OpenRouter"),
    OPENROUTER_BASE_URL: baseUrl("OpenRouter", "https://openrouter.ai/api/v1"),
    TOGETHER_API_KEY: apiKey("Together"),
    TOGETHER_BASE_URL: baseUrl("Together", "https://api.together.xyz/v1"),
    DEEPSEEK_API_KEY: apiKey("DeepSeek"),
    DEEPSEEK_BASE_URL: baseUrl("DeepSeek", "https://api.deepseek.com/v1"),
    MISTRAL_API_KEY: apiKey("Mistral"),
    MISTRAL_BASE_URL: baseUrl("Mistral", "https://api.mistral.ai/v1"),
    XAI_API_KEY: apiKey("xAI"),
    XAI_BASE_URL: baseUrl("xAI", "https://api.x.ai/v1"),
    GEMINI_API_KEY: apiKey("Gemini"),
    GEMINI_BASE_URL: baseUrl("Gemini", "https://generativelanguage.googleapis.com/v1beta/openai"),
    OLLAMA_BASE_URL: localServer("Ollama", "http://127.0.0.1:11434/v1"),
    VLLM_BASE_URL: localServer("vLLM", "http://127.0.0.1:8000/v1"),
    LMSTUDIO_BASE_URL: localServer("LM Studio", "http://127.0.0.1:1234/v1"),
  },
  (env) => {
    const keyed = (key: string | undefined, base: string): LlmProviderConfig => ({ apiKey: key || "", baseUrl: base });
    const gatewayUrl = env("LLM_BASE_URL");
    // Keyed by the provider names model routing uses (shared/llm/providers.ts).
    const providers: Record<string, LlmProviderConfig> = {
      openai: keyed(env("OPENAI_API_KEY"), env("OPENAI_BASE_URL")),
      anthropic: keyed(env("ANTHROPIC_API_KEY"), env("ANTHROPIC_BASE_URL")),
      groq: keyed(env("GROQ_API_KEY"), env("GROQ_BASE_URL")),
      openrouter: keyed(env("OPENROUTER_API_KEY"), env("OPENROUTER_BASE_URL")),
      together: keyed(env("TOGETHER_API_KEY"), env("TOGETHER_BASE_URL")),
      deepseek: keyed(env("DEEPSEEK_API_KEY"), env("DEEPSEEK_BASE_URL")),
      mistral: keyed(env("MISTRAL_API_KEY"), env("MISTRAL_BASE_URL")),
      xai: keyed(env("XAI_API_KEY"), env("XAI_BASE_URL")),
      gemini: keyed(env("GEMINI_API_KEY"), env("GEMINI_BASE_URL")),
      ollama: { apiKey: "ollama", baseUrl: env("OLLAMA_BASE_URL") },
      vllm: { apiKey: "vllm", baseUrl: env("VLLM_BASE_URL") },
      lmstudio: { apiKey: "lmstudio", baseUrl: env("LMSTUDIO_BASE_URL") },
    };
    return {
      llm: {
        defaultModel: env("DEFAULT_MODEL"),
        defaultWorkerModel: env("DEFAULT_WORKER_MODEL"),
        timeoutMs: env("LLM_TIMEOUT_MS"),
        maxRetries: env("LLM_MAX_RETRIES"),
        retryBaseMs: env("LLM_RETRY_BASE_MS"),
        retryMaxDelayMs: env("LLM_RETRY_MAX_DELAY_MS"),
        /** The per-process cap on LLM calls in flight (workers/agents/llm-slots.ts). */
        maxInFlight: env("LLM_MAX_IN_FLIGHT"),
        /** One OpenAI-compatible gateway for every model (LiteLLM, a company proxy, the local simulator). */
        gateway: gatewayUrl ? { baseUrl: gatewayUrl, apiKey: env("LLM_API_KEY") || "none" } : null,
        /** The LLM endpoint is the bundled simulator: its `sim_*` controls are provider options. */
        simulator: env("LLM_SIMULATOR") === "true",
        providers,
      },
    };
  },
);
