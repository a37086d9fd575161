import type { AgentSpec, RunBudgetRequest } from "./agent-spec";
import type { SwarmUsage } from "./swarm-request";

/** What `POST /v1/auto-swarm-builder/completions` can return, in the order the hosted API lists them. */
export const EXECUTION_TYPES = ["return-agents", "return-swarm-router-config", "return-agents-objects"] as const;
export type ExecutionType = (typeof EXECUTION_TYPES)[number];

/** The auto swarm builder's request, validated and with its defaults filled in by the API. */
export interface AutoSwarmBuilderRequest {
  name?: string | null;
  description?: string | null;
  task: string;
  model_name: string;
  max_tokens: number;
  max_loops: number;
  execution_type: ExecutionType;
  /** Never streamed: the builder answers with one structured result. */
  stream: false;
  budget?: RunBudgetRequest;
}

/** `POST /v1/agents/auto-generate`'s request: the task the agent is for, and the model it runs on. */
export interface AgentGenerateRequest {
  task: string;
  model_name: string;
  max_tokens: number;
  stream: false;
  budget?: RunBudgetRequest;
}

/** A swarm the builder designed, validated: what every execution type is rendered from. */
export interface DesignedSwarm {
  name: string;
  description: string;
  swarm_type: string;
  /** Only for AgentRearrange. */
  rearrange_flow: string | null;
  rules: string | null;
  agents: AgentSpec[];
}

/** What an `auto_swarm_builder` run stores: the design, rendered by execution type when presented. */
export interface AutoSwarmBuilderOutput {
  swarm: DesignedSwarm;
}

/** What an `agent_generate` run stores. */
export interface AgentGenerateOutput {
  agent_config: AgentSpec;
}

/** Both builder kinds are priced like a swarm: tokens and one agent charge for the Builder. */
export type BuilderUsage = SwarmUsage;
