import type { Truncation } from "../limits/outside-content";
import type { WoundDown } from "./agent-outcome";
import type { AgentSpec, RunBudgetRequest } from "./agent-spec";

/** A message of `messages`: the conversation a swarm starts from. */
export interface SwarmMessage {
  role?: string;
  name?: string;
  content: unknown;
}

/**
 * What an omitted swarm field becomes: the request schema's defaults, and the fields of the runs
 * the service builds itself (a workflow endpoint's, the Builder's, a reasoning agent's).
 */
export const OMITTED_SWARM_FIELDS = {
  stream: false,
  heavy_swarm_loops_per_agent: 1,
  heavy_swarm_max_loops: 1,
  heavy_swarm_variant: "default",
  multi_agent_collab_prompt: true,
  list_all_agents: false,
  service_tier: "standard",
} as const satisfies Partial<SwarmRequest>;

/** HeavySwarm's built-in teams (hosted docs: `heavy_swarm_variant`). */
export const HEAVY_SWARM_VARIANTS = ["default", "medium", "heavy"] as const;
export type HeavySwarmVariant = (typeof HEAVY_SWARM_VARIANTS)[number];

/**
 * `director_settings`: the director's temperature and output limit replace its own; any other key
 * is a provider option added to its `llm_args`.
 */
interface DirectorSettings {
  temperature?: number | null;
  max_tokens?: number | null;
  [option: string]: unknown;
}

/** A swarm completion request (the hosted API's SwarmRequest), validated and normalised by the API. */
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
  /** Unset: the agents' model (the first agent's); without agents the API fills in `DEFAULT_MODEL`. */
  heavy_swarm_question_agent_model_name?: string | null;
  /** Unset: the agents' model for the synthesis; without agents the API fills in `DEFAULT_WORKER_MODEL`. */
  heavy_swarm_worker_model_name?: string | null;
  /** HeavySwarm rounds: each round after the first refines the previous round's report. */
  heavy_swarm_max_loops: number;
  /** HeavySwarm's built-in team when the request has no agents. */
  heavy_swarm_variant: HeavySwarmVariant;
  /** Whether every agent's system prompt carries the collaboration prompt. */
  multi_agent_collab_prompt: boolean;
  /** Whether every agent's system prompt lists the whole team with descriptions. */
  list_all_agents: boolean;
  /** CouncilAsAJudge: the model of the Chair, who delivers the final ruling. */
  council_judge_model_name?: string | null;
  /** LLMCouncil: the model of the chairman. */
  chairman_model?: string | null;
  /** HierarchicalSwarm: the model of the director. */
  director_model_name?: string | null;
  /** HierarchicalSwarm: the director's sampling settings. */
  director_settings?: DirectorSettings | null;
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
  /** Set when the budget wound the run down: `output` then lists what finished. */
  incomplete?: WoundDown;
  /** Outside content the run cut to its bounds (docs/limits.md), when any. */
  truncated?: Truncation[];
}

/** The SwarmResponse `usage` object of docs/api.md, as a swarm run stores it. */
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
      /** The flat fee of the built-in search, when the run's agents had it (DeepResearchSwarm's researchers). */
      search_cost?: number;
      /** The flat fee of the built-in scraper, when the run's agents had it. */
      scrape_cost?: number;
    };
    total_cost: number;
    discount_active: boolean;
  };
}
