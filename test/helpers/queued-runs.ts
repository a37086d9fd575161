import { expect } from "chai";
import type { Harness } from "./harness";
import { request } from "./http";

/** Queues one agent run for `key` (answered 202 at once) whose one LLM call takes `latencyMs`; its job id. */
export async function queueAgentRun(h: Harness, key: string, task: string, latencyMs: number): Promise<string> {
  const accepted = await request(h.baseUrl, "POST", "/v1/agent/completions", {
    key,
    headers: { prefer: "respond-async" },
    body: { agent_config: { agent_name: "Queued", max_loops: 1, llm_args: { sim_latency_ms: latencyMs } }, task },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
  return accepted.body.job_id as string;
}
