import type { AgentSpec, RunBudgetRequest } from "./agent-spec";

/** A message of `messages`: the conversation a swarm starts from. */
export interface SwarmMessage {
  role?: string;
  name?: string;
  content: unknown;
}

/** E1 request (spec: SwarmRequest), validated and normalised by the API. */
export interface SwarmRequest {
  name?: string | null;
  description?: string | null;
  agents?: AgentSpec[] | null;
  max_loops: number;
  swarm_type: string;
  rearrange_flow?: string | null;
  task?: string | null;
  img?: string | null;
  rules?: string | null;
  tasks?: string[] | null;
  messages?: SwarmMessage[] | Record<string, unknown> | null;
  stream: boolean;
  heavy_swarm_loops_per_agent: number;
  heavy_swarm_question_agent_model_name: string;
  heavy_swarm_worker_model_name: string;
  service_tier: "standard" | "flex";
  budget?: RunBudgetRequest;
}

/** One turn of a swarm's output: who produced it, and what. */
export interface SwarmTurn {
  role: string;
  content: unknown;
  [extra: string]: unknown;
}

/** What a swarm run stores in `runs.output`. */
export interface SwarmRunOutput {
  /** The type that ran (for `auto`, the one it chose). */
  swarm_type: string;
  output: unknown;
  number_of_agents: number;
}

/** The SwarmResponse `usage` object of the spec and CONTRACT.md, as a swarm run stores it. */
export interface SwarmUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  billing_info: {
    cost_breakdown: {
      agent_cost: number;
      input_token_cost: number;
      output_token_cost: number;
      token_counts: { total_input_tokens: number; total_output_tokens: number; total_tokens: number };
      num_agents: number;
      service_tier: string;
      night_time_discount_applied: boolean;
      img_cost: number;
      mcp_cost: number;
    };
    total_cost: number;
    discount_active: boolean;
  };
}
