import type { AgentSpec } from "./agent-spec";

/** The `temperature` of an agent that gives none (or null): the hosted API's default. */
export const DEFAULT_TEMPERATURE = 0.5;

/** The `max_tokens` of an agent that gives none: the hosted API's default. */
export const DEFAULT_MAX_TOKENS = 8192;

/**
 * The temperature an agent runs at: its own, else DEFAULT_TEMPERATURE. An agent is never sent
 * without one (a model that takes a temperature would use its provider's default, 1.0, instead).
 */
export function agentTemperature(spec: Pick<AgentSpec, "temperature">): number {
  return spec.temperature ?? DEFAULT_TEMPERATURE;
}
