import type { WoundDown } from "./agent-outcome";
import type { Truncation } from "../limits/outside-content";
import type { SharedSpendCeilings } from "../limits/shared-spend";

/** An MCP server an agent may call (the hosted API's McpConfig). */
export interface McpConfig {
  type?: string;
  url: string;
  tool_configurations?: Record<string, unknown> | null;
  authorization_token?: string | null;
  transport?: string;
  headers?: Record<string, string> | null;
  /** Seconds. */
  timeout?: number;
}

/** An agent definition as clients send it (the hosted API's AgentSpec), after defaults are applied. */
export interface AgentSpec {
  agent_name?: string | null;
  description?: string | null;
  system_prompt?: string | null;
  marketplace_prompt_id?: string | null;
  model_name: string;
  auto_generate_prompt: boolean;
  max_tokens: number;
  temperature?: number | null;
  role: string;
  max_loops: number;
  tools_list_dictionary?: Record<string, unknown>[] | null;
  selected_tools?: string | null;
  mcp_url?: string | null;
  streaming_on: boolean;
  llm_args?: Record<string, unknown> | null;
  dynamic_temperature_enabled: boolean;
  mcp_config?: McpConfig | null;
  mcp_configs?: { connections: McpConfig[] } | null;
  tool_call_summary: boolean;
  reasoning_effort: string;
  thinking_tokens?: number | null;
  reasoning_enabled: boolean;
  publish_to_marketplace: boolean;
  use_cases?: Record<string, unknown>[] | null;
  tags?: string[] | null;
  capabilities?: string[] | null;
  category?: string | null;
  is_free: boolean;
  price_usd?: number | null;
  handoffs?: unknown[] | null;
  /** Tools the service runs for this agent only once the run's client approves the call (docs/approvals.md). */
  requires_approval?: string[] | null;
  /** Set by the service, never by clients: the marketplace prompt this agent was published as. */
  published_prompt_id?: string | null;
}

/** A message of prior conversation (`history`). */
export interface HistoryMessage {
  role: string;
  content: unknown;
}

/** The agent completion's request body, validated. */
export interface AgentCompletionRequest {
  agent_config: AgentSpec;
  task: string;
  history?: HistoryMessage[] | Record<string, unknown> | null;
  img?: string | null;
  imgs?: string[] | null;
  tools_enabled?: string[] | null;
  stream?: boolean;
  budget?: RunBudgetRequest;
}

/** The agent completion's `usage` object. */
export interface AgentUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  img_cost: number;
  mcp_cost: number;
  /** The flat `auto_search` fee, when the request enabled it. */
  search_cost?: number;
  /** The flat `web_scraper` fee, when the request enabled it. */
  scrape_cost?: number;
  total_cost: number;
}

/** What an agent run stores in `runs.output`. */
export interface AgentRunOutput {
  outputs: { role: string; content: unknown }[];
  /** Set when the budget wound the run down: it holds what finished. */
  incomplete?: WoundDown;
  /** Outside content the run cut to its bounds (docs/limits.md), when any. */
  truncated?: Truncation[];
}

/** Ceilings of one run; the API fills in the caller's tier defaults for what the request leaves out. */
export interface RunBudgetRequest {
  max_tokens?: number;
  /** US dollars. */
  max_cost?: number;
  timeout_seconds?: number;
  /** What the run does at a ceiling: fail (the default), or stop starting work and answer with what finished. */
  on_exceeded?: "fail" | "wind_down";
}

/** The budget the API stores with a run (older runs, and the service's own, may lack the shared ceilings). */
export type StoredBudget = RunBudgetRequest & Partial<SharedSpendCeilings>;
