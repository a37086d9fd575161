import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import type { RunEvent } from "../../shared/queues/run-events";
import type { Frame } from "../reply";
import { approvalFrame } from "./approval-frame";
import { errorFrame, now, type StreamFormat } from "../spine/run-stream";

/**
 * The swarm completion's frames (docs/api.md, "Streaming"): metadata, start, then per agent `agent_start`, `chunk` (tagged with
 * the agent, so parallel agents' chunks can be told apart) and `agent_end`; then usage and end.
 */
export function swarmStreamFormat(
  jobId: string,
  request: Pick<SwarmRequest, "name" | "swarm_type" | "agents">,
): StreamFormat {
  const started = Date.now();
  return {
    metadata: {
      job_id: jobId,
      swarm_name: request.name ?? null,
      swarm_type: request.swarm_type,
      number_of_agents: request.agents?.length ?? 0,
      type: "metadata",
    },
    framesFor(event: RunEvent): Frame[] {
      switch (event.type) {
        case "start":
          return [{ event: "start", data: { timestamp: now() } }];
        case "agent_start":
        case "agent_end":
          return [{ event: event.type, data: { agent: event.agent, timestamp: now() } }];
        case "chunk":
          return [{ event: "chunk", data: { agent: event.agent, content: event.content, timestamp: now() } }];
        case "finish": {
          const end = { job_id: jobId, execution_time: (Date.now() - started) / 1_000, status: "success" };
          return [
            { event: "usage", data: event.usage },
            { event: "end", data: { ...end, timestamp: now() } },
          ];
        }
        case "awaiting_approval":
          return [approvalFrame(jobId, event)];
        case "error":
          return [errorFrame(event.error)];
        default:
          return []; // a chat run's own events: a swarm never emits them
      }
    },
    endingOf: (run) => [{ type: "finish", usage: run.usage }],
  };
}
