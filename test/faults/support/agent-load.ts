import { jsonRequest } from "../../../scripts/bench/client/json-request";

/** One agent completion request of a load and how the service answered it. */
export interface LoadOutcome {
  /** Unique text in the task, to find the run's LLM calls in the simulator's journal. */
  marker: string;
  /** HTTP status; 0 when no answer came (connection refused or reset, timed out). */
  status: number;
  body: any;
  ms: number;
  /** Why no answer came. */
  error?: string;
}

export interface AgentRequestSpec {
  marker: string;
  /** Turns of the agent (one LLM call each). */
  maxLoops?: number;
  /** Simulated LLM latency per call, so the run is still in flight when the fault strikes. */
  latencyMs?: number;
  /** Further `llm_args` for the simulator (`sim_error`, …). */
  llmArgs?: Record<string, unknown>;
  budget?: Record<string, unknown>;
}

/** The agent completion body for a spec: an agent whose task is the marker. */
export function agentBody(spec: AgentRequestSpec): Record<string, unknown> {
  const llmArgs = { ...(spec.latencyMs ? { sim_latency_ms: spec.latencyMs } : {}), ...spec.llmArgs };
  return {
    agent_config: { agent_name: "Loaded", max_loops: spec.maxLoops ?? 1, llm_args: llmArgs },
    task: spec.marker,
    ...(spec.budget ? { budget: spec.budget } : {}),
  };
}

/** Sends one synchronous agent completion request; a transport failure is an outcome too, not an exception. */
export async function sendAgentRequest(
  apiUrl: string,
  key: string,
  spec: AgentRequestSpec,
  timeoutMs = 120_000,
): Promise<LoadOutcome> {
  const started = performance.now();
  try {
    const answer = await jsonRequest("POST", `${apiUrl}/v1/agent/completions`, {
      apiKey: key,
      body: agentBody(spec),
      timeoutMs,
    });
    return { marker: spec.marker, status: answer.status, body: answer.json ?? answer.text, ms: answer.ms };
  } catch (err) {
    return {
      marker: spec.marker,
      status: 0,
      body: null,
      ms: performance.now() - started,
      error: err instanceof Error ? `${err.message} ${String((err as any).cause ?? "")}` : String(err),
    };
  }
}

/** `count` distinct markers: `<prefix>#<n>#`, none of which contains another. */
export function markers(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${Date.now().toString(36)}#${i}#`);
}
