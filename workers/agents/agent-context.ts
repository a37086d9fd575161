import type { RunBudget } from "./run-budget";
import type { StepRecorder } from "./step-recorder";

/** Totals of a run across all its agents, for billing. */
export class UsageCounter {
  inputTokens = 0;
  outputTokens = 0;
  /** Our billed token cost so far (before per-agent, image and MCP charges). */
  tokenCost = 0;
  mcpCalls = 0;
  /** Built-in tools (`auto_search`, `web_scraper`) enabled for the run: each is a flat fee once. */
  readonly builtinTools = new Set<string>();
  /** Built-in tool calls made so far, against `TOOL_MAX_CALLS_PER_RUN`. */
  builtinCalls = 0;
  /** Advanced research's searches the provider answered: each is billed (a failed one is not). */
  billedSearches = 0;
  /** Agents billed however few made calls: an agent run's own agent, once its budget admitted the charge. */
  minimumAgents = 0;
  /**
   * What the bill takes off at the end (a swarm's night and flex discounts), as its usage was last
   * priced: the ledger records the same amount.
   */
  discount = 0;
  /** Distinct images the run sent: each is billed once, however many agents saw it. */
  readonly images = new Set<string>();
  /** Agents that made at least one LLM call: an internal agent (Director, Consensus, …) apart from a request agent a client named the same. */
  private readonly callers = new Map<string, string>();

  /**
   * Counts an agent's call; `internal`: one of the type's own agents, never merged with a request
   * agent's name. Returns how to take it back when it was the agent's first (for pricing a call
   * before it is made), or null.
   */
  addCaller(name: string, internal: boolean): (() => void) | null {
    const caller = internal ? `internal:${name}` : `request:${name}`;
    if (this.callers.has(caller)) return null;
    this.callers.set(caller, name);
    return () => void this.callers.delete(caller);
  }

  /** The names of the agents that made calls (an internal agent and a request agent of one name once). */
  get agentNames(): string[] {
    return [...new Set(this.callers.values())];
  }

  /** How many agents made calls: `number_of_agents`, and what the per-agent charge counts. */
  get agentCount(): number {
    return this.callers.size;
  }
}

/** What every agent turn of a run shares. */
export interface AgentContext {
  /** The lane this agent records its steps in. */
  recorder: StepRecorder;
  budget: RunBudget;
  usage: UsageCounter;
  /** Fires on cancellation, the run's deadline, or worker shutdown. */
  signal: AbortSignal;
  /** Receives the agent's text as it streams (only when the client asked for streaming). */
  onText?: (agentName: string, text: string) => void;
  /** Handoff nesting depth (0 for the run's own agent). */
  depth: number;
}
