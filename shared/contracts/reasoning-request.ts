import type { RunBudgetRequest } from "./agent-spec";
import type { SwarmTurn } from "./swarm-request";

/**
 * Every `output_type` the hosted API's ReasoningAgentSpec names (docs/reasoning-agents.md "Output
 * types" says what each one gives).
 */
export const REASONING_OUTPUT_TYPES = [
  "list",
  "dict",
  "dictionary",
  "string",
  "str",
  "final",
  "last",
  "json",
  "all",
  "yaml",
  "xml",
  "dict-all-except-first",
  "str-all-except-first",
  "basemodel",
  "dict-final",
  "list-final",
] as const;
export type ReasoningOutputType = (typeof REASONING_OUTPUT_TYPES)[number];

/** The reasoning types that run (the other names the SDK lists are aliases of these). */
export const REASONING_TYPES = [
  "reasoning-duo",
  "self-consistency",
  "ire",
  "ReflexionAgent",
  "GKPAgent",
  "AgentJudge",
] as const;
export type ReasoningTypeName = (typeof REASONING_TYPES)[number];

/** `POST /v1/reasoning-agent/completions`, validated and made ready to store (defaults filled in). */
export interface ReasoningRequest {
  agent_name: string;
  description: string | null;
  model_name: string;
  system_prompt: string | null;
  /** The type that runs (an alias mapped to its canonical name). */
  swarm_type: ReasoningTypeName;
  /** The name the client sent, alias or canonical. */
  requested_swarm_type: string;
  max_loops: number;
  num_samples: number | null;
  memory_capacity: number | null;
  num_knowledge_items: number | null;
  output_type: ReasoningOutputType;
  task: string;
  /** Apiary's addition: provider options for every call of the run (credential-like values sealed). */
  llm_args?: Record<string, unknown> | null;
  /** Apiary's addition: answer with Server-Sent Events, as a swarm does. */
  stream?: boolean;
  budget?: RunBudgetRequest;
}

/** What a reasoning run stores in `runs.output`. */
export interface ReasoningRunOutput {
  swarm_type: ReasoningTypeName;
  /** Every turn of the run, the task first, each attributed to the role agent that produced it. */
  turns: SwarmTurn[];
  /** `turns` in the request's `output_type`. */
  output: unknown;
  number_of_agents: number;
}
