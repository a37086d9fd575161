import type { AgentSpec, RunBudgetRequest } from "./agent-spec";

/** One edge of a graph workflow: `target` runs after `source` and reads its output. */
export interface GraphEdge {
  source: string;
  target: string;
  /** The client's own notes on the edge: stored and shown back, never read by the service. */
  metadata?: Record<string, unknown> | null;
}

/** `POST /v1/graph-workflow/completions`, validated and made ready by the API. */
export interface GraphWorkflowRequest {
  name?: string | null;
  description?: string | null;
  /** The nodes, each under its `agent_name`. */
  agents: AgentSpec[];
  edges: GraphEdge[];
  /** Where the task enters: the nodes without sources when the client gives none. */
  entry_points: string[];
  /** Whose outputs the next loop starts from: the nodes without targets when the client gives none. */
  end_points: string[];
  max_loops: number;
  task: string;
  img?: string | null;
  /** Accepted for the hosted API's clients: the graph is always checked before it runs. */
  auto_compile: boolean;
  /** Accepted for the hosted API's clients: the service's logs are the operator's. */
  verbose: boolean;
  budget?: RunBudgetRequest;
  /** Workflows have no streaming form: never set (named so the completion steps can read it). */
  stream?: false;
}

/** What a graph workflow run stores: every node's output, keyed by node (see docs/workflows.md). */
export interface GraphWorkflowOutput {
  outputs: Record<string, unknown>;
  number_of_agents: number;
}

/** `POST /v1/batched-grid-workflow/completions`, validated and made ready (`agent_completions` stored as `agents`). */
export interface BatchedGridWorkflowRequest {
  name?: string | null;
  description?: string | null;
  agents: AgentSpec[];
  tasks: string[];
  /** `imgs[i]` goes with `tasks[i]`, to every agent on that task. */
  imgs?: string[] | null;
  max_loops: number;
  budget?: RunBudgetRequest;
  /** Workflows have no streaming form: never set (named so the completion steps can read it). */
  stream?: false;
}

/** What a batched grid workflow run stores: per task, every agent's final answer keyed by agent. */
export interface BatchedGridWorkflowOutput {
  outputs: Record<string, unknown>[];
  number_of_agents: number;
}
