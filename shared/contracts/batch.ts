/** One swarm batch slot (docs/api.md, "Batches"): the item's result, or its error in its place. */
export type SwarmBatchItem =
  | {
      status: "success";
      job_id: string;
      swarm_name: string | null;
      swarm_type: string;
      result: unknown;
      usage: unknown;
      execution_time: number | null;
    }
  | { status: "error"; swarm_name: string | null; detail: string; job_id?: string };

/** What an agent batch's parent run stores as its request: how many items the batch had. */
export interface AgentBatchParent {
  total_requests: number;
}

/** What a swarm batch's parent run stores as its request: the item count and the items refused before running, by position. */
export interface SwarmBatchParent {
  total_requests: number;
  rejected: { index: number; item: SwarmBatchItem }[];
}

/** What a batch's parent run stores as its output once every item has ended. */
export interface BatchOutput {
  /** The items' job ids, in request order. */
  items: string[];
  succeeded: number;
  failed: number;
}

/** A batch's usage: its items' tokens and cost added up. */
export interface BatchTotals {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  total_cost: number;
}
