import type { StoredBudget } from "./agent-spec";

/** An advanced research session's settings (the SDK's `config`), defaults filled in by the API. */
export interface AdvancedResearchConfig {
  name: string | null;
  description: string | null;
  director_agent_name: string;
  director_model_name: string;
  director_max_tokens: number;
  /** The director's own review turns when it writes each round's report. */
  director_max_loops: number;
  worker_model_name: string;
  /** Research rounds: plan, search in parallel, synthesise; a later round builds on the last report. */
  max_loops: number;
  exa_search_num_results: number;
  exa_search_max_characters: number;
}

/** `POST /v1/advanced-research/completions`'s body (and each batch item), validated. */
export interface AdvancedResearchRequest {
  config: AdvancedResearchConfig;
  task: string;
  img?: string | null;
  /** Advanced research answers once, never as a stream; kept false for the run spine. */
  stream?: boolean;
  budget?: StoredBudget;
}

/** What an advanced research run stores as its output. */
export interface AdvancedResearchOutput {
  /** The session's messages in order: each round's plan, findings and report; the last report last. */
  outputs: { role: string; content: string }[];
  /** Distinct source URLs the searches returned. */
  sources: number;
}

/** An advanced research run's `usage`. */
export interface AdvancedResearchUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Searches the provider answered: each is billed, a failed one is not. */
  searches: number;
  search_cost: number;
  agent_cost: number;
  total_cost: number;
}

/** What a batch of advanced research sessions stores as its parent's request. */
export interface AdvancedResearchBatchParent {
  total_requests: number;
}
