import type { ResolvedModel } from "../../shared/llm/providers";

/**
 * How a model takes reasoning settings. Decided by provider, and for a gateway (which may front
 * any provider) by the model's name.
 */
export type ModelFamily = "openai-reasoning" | "openai" | "anthropic" | "openrouter" | "gemini" | "other";

const OPENAI_REASONING = /^(o[134](-|$)|gpt-5)/;

export function modelFamily(target: ResolvedModel): ModelFamily {
  const name = target.model.toLowerCase().replace(/^(openai|anthropic|google|gemini)\//, "");
  if (target.provider === "openrouter") return "openrouter";
  if (target.provider === "anthropic" || name.startsWith("claude-")) return "anthropic";
  if (target.provider === "gemini" || name.startsWith("gemini-")) return "gemini";
  if (OPENAI_REASONING.test(name)) return "openai-reasoning";
  if (target.provider === "openai" || name.startsWith("gpt-")) return "openai";
  return "other";
}
