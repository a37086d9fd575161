import { agentTemperature } from "../../shared/contracts/agent-defaults";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { ChatMessage, ChatRequest } from "../../shared/llm/chat";
import { allowedOptionsOf } from "../../shared/llm/provider-options";
import type { ResolvedModel } from "../../shared/llm/providers";
import { modelFamily } from "./model-family";

/** Thinking budgets for an effort level when the request gives no `thinking_tokens`. */
const EFFORT_BUDGET: Record<string, number> = { minimal: 1024, low: 1024, medium: 2048, high: 4096 };

/** Variation applied on successive loops: loop 1 uses the agent's temperature exactly. */
const TEMPERATURE_STEPS = [0, 0.1, -0.1, 0.2, -0.2];

/**
 * The temperature of a loop: the agent's own (the hosted default 0.5 when it gives none), varied
 * within ±0.2 on later loops when `dynamic_temperature_enabled`. The variation is a function of the
 * loop alone, never random, so a retried job sends every call what its first attempt sent.
 */
function loopTemperature(spec: AgentSpec, loop: number): number {
  const base = agentTemperature(spec);
  if (!spec.dynamic_temperature_enabled) return base;
  const varied = base + TEMPERATURE_STEPS[loop % TEMPERATURE_STEPS.length];
  return Math.round(Math.min(2, Math.max(0, varied)) * 100) / 100;
}

export interface RequestOptions {
  loop: number;
  tools?: ChatRequest["tools"];
  toolChoice?: ChatRequest["tool_choice"];
  /** Cap from the run's remaining token budget. */
  maxTokensCap?: number;
}

/**
 * One provider request for an agent: messages, output limit and temperature, the reasoning
 * settings in the form this model's provider takes them (and none where it rejects them), tools,
 * and the allowed `llm_args` as extra body fields.
 */
export function buildChatRequest(
  spec: AgentSpec,
  target: ResolvedModel,
  messages: ChatMessage[],
  options: RequestOptions,
): ChatRequest {
  const request: ChatRequest = { messages: [...messages] };
  // Only the options on the allow-list for this model reach the provider, as the API checks them:
  // a run stored before a key was refused, or an option an internal agent borrowed, never carries
  // a key, a proxy or another endpoint to a gateway. The fields the service sets are never on it.
  Object.assign(request, allowedOptionsOf(spec.llm_args, spec.model_name));
  const maxTokens = Math.min(spec.max_tokens, options.maxTokensCap ?? Infinity);
  let temperature: number | undefined = loopTemperature(spec, options.loop);
  const family = modelFamily(target);

  switch (family) {
    case "openai-reasoning":
      // Reasoning models take an effort and count hidden reasoning in max_completion_tokens; they reject temperature.
      request.reasoning_effort = spec.reasoning_effort as ChatRequest["reasoning_effort"];
      request.max_completion_tokens = maxTokens;
      temperature = undefined;
      break;
    case "anthropic":
      request.max_tokens = maxTokens;
      if (spec.reasoning_enabled || spec.thinking_tokens) {
        const wanted = spec.thinking_tokens ?? EFFORT_BUDGET[spec.reasoning_effort] ?? 1024;
        // The budget must be at least 1024 and below max_tokens; thinking requires temperature 1.
        const budget = Math.max(1024, Math.min(wanted, maxTokens - 1));
        if (budget < maxTokens) {
          request.thinking = { type: "enabled", budget_tokens: budget };
          temperature = undefined;
        }
      }
      break;
    case "openrouter":
      request.max_tokens = maxTokens;
      if (spec.reasoning_enabled || spec.thinking_tokens) {
        request.reasoning = spec.thinking_tokens
          ? { max_tokens: spec.thinking_tokens }
          : { effort: spec.reasoning_effort };
      }
      break;
    case "gemini":
      request.max_tokens = maxTokens;
      if (spec.reasoning_enabled)
        request.reasoning_effort = (
          spec.reasoning_effort === "minimal" ? "low" : spec.reasoning_effort
        ) as ChatRequest["reasoning_effort"];
      break;
    default:
      request.max_tokens = maxTokens;
  }
  if (temperature !== undefined) request.temperature = temperature;
  if (options.tools && options.tools.length) {
    request.tools = options.tools;
    if (options.toolChoice) request.tool_choice = options.toolChoice;
  }
  return request;
}
