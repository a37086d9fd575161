import Joi from "joi";
import { defineDomain, optionalNum } from "./setting";

/** A provider key's limits per minute as the operator set them (0: none set). */
export interface ConfiguredProviderLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

const perMinute = Joi.number().integer().min(1).max(1_000_000_000);
const rpm = (provider: string) =>
  optionalNum(perMinute, `requests per minute ${provider}'s key allows (unset: none but what its answers teach)`);
const tpm = (provider: string) =>
  optionalNum(perMinute, `tokens per minute ${provider}'s key allows (unset: none but what its answers teach)`);

/**
 * Requests and tokens per minute each provider key allows, shared by every worker process
 * (docs/provider-limits.md). Unset, a key is held only to what the provider's own answers report.
 */
export const providerLimits = defineDomain(
  "Provider rate limits",
  {
    LLM_RPM: rpm("the gateway (`LLM_BASE_URL`)"),
    LLM_TPM: tpm("the gateway (`LLM_BASE_URL`)"),
    OPENAI_RPM: rpm("OpenAI"),
    OPENAI_TPM: tpm("OpenAI"),
    ANTHROPIC_RPM: rpm("Anthropic"),
    ANTHROPIC_TPM: tpm("Anthropic"),
    GROQ_RPM: rpm("Groq"),
    GROQ_TPM: tpm("Groq"),
    OPENROUTER_RPM: rpm("OpenRouter"),
    OPENROUTER_TPM: tpm("OpenRouter"),
    TOGETHER_RPM: rpm("Together"),
    TOGETHER_TPM: tpm("Together"),
    DEEPSEEK_RPM: rpm("DeepSeek"),
    DEEPSEEK_TPM: tpm("DeepSeek"),
    MISTRAL_RPM: rpm("Mistral"),
    MISTRAL_TPM: tpm("Mistral"),
    XAI_RPM: rpm("xAI"),
    XAI_TPM: tpm("xAI"),
    GEMINI_RPM: rpm("Gemini"),
    GEMINI_TPM: tpm("Gemini"),
  },
  (env) => {
    const limits = (requests: number | undefined, tokens: number | undefined): ConfiguredProviderLimits => ({
      requestsPerMinute: requests ?? 0,
      tokensPerMinute: tokens ?? 0,
    });
    return {
      /** Keyed by the provider names model routing uses (shared/llm/providers.ts), `gateway` for `LLM_BASE_URL`. */
      providerLimits: {
        gateway: limits(env("LLM_RPM"), env("LLM_TPM")),
        openai: limits(env("OPENAI_RPM"), env("OPENAI_TPM")),
        anthropic: limits(env("ANTHROPIC_RPM"), env("ANTHROPIC_TPM")),
        groq: limits(env("GROQ_RPM"), env("GROQ_TPM")),
        openrouter: limits(env("OPENROUTER_RPM"), env("OPENROUTER_TPM")),
        together: limits(env("TOGETHER_RPM"), env("TOGETHER_TPM")),
        deepseek: limits(env("DEEPSEEK_RPM"), env("DEEPSEEK_TPM")),
        mistral: limits(env("MISTRAL_RPM"), env("MISTRAL_TPM")),
        xai: limits(env("XAI_RPM"), env("XAI_TPM")),
        gemini: limits(env("GEMINI_RPM"), env("GEMINI_TPM")),
      } as Record<string, ConfiguredProviderLimits>,
    };
  },
);
