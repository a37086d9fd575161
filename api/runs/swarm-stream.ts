import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import type { RunEvent } from "../../shared/queues/run-events";
import { now, type StreamFormat } from "./run-stream";
import type { SseStream } from "../http/sse";

/**
 * E1's frames (CONTRACT.md): metadata, start, then per agent `agent_start`, `chunk` (tagged with
 * the agent, so parallel agents' chunks can be told apart) and `agent_end`; then usage and end.
 */
export function swarmStreamFormat(jobId: string, request: SwarmRequest): StreamFormat {
  const started = Date.now();
  const relay = (sse: SseStream, event: RunEvent): boolean => {
    switch (event.type) {
      case "start":
        sse.send({ timestamp: now() }, "start");
        return false;
      case "agent_start":
      case "agent_end":
        sse.send({ agent: event.agent, timestamp: now() }, event.type);
        return false;
      case "chunk":
        sse.send({ agent: event.agent, content: event.content, timestamp: now() }, "chunk");
        return false;
      case "finish":
        sse.send(event.usage, "usage");
        sse.send(
          { job_id: jobId, execution_time: (Date.now() - started) / 1_000, status: "success", timestamp: now() },
          "end",
        );
        return true;
      case "error":
        sse.send({ error: event.error, timestamp: now() }, "error");
        return true;
    }
  };
  return {
    metadata: {
      job_id: jobId,
      swarm_name: request.name ?? null,
      swarm_type: request.swarm_type,
      number_of_agents: request.agents?.length ?? 0,
      type: "metadata",
    },
    relay,
    finishFromRow(sse, run) {
      if (run.status === "succeeded") relay(sse, { type: "finish", usage: run.usage });
      else
        relay(sse, {
          type: "error",
          error: run.error?.message ?? `The run ended as ${run.status}`,
        });
    },
  };
}
