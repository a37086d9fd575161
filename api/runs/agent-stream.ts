import { agentTemperature } from "../../shared/contracts/agent-defaults";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { answerChunk, type RunEvent } from "../../shared/queues/run-events";
import type { Frame } from "../reply";
import { approvalFrame } from "./approval-frame";
import { errorFrame, now, type StreamFormat } from "../spine/run-stream";

/** The agent completion's frames (docs/api.md, "Streaming"): metadata, start, chunk…, usage, end, done; or one error. */
export function agentStreamFormat(jobId: string, request: AgentCompletionRequest): StreamFormat {
  const spec = request.agent_config;
  return {
    metadata: {
      job_id: jobId,
      success: true,
      name: spec.agent_name ?? null,
      description: spec.description ?? null,
      temperature: agentTemperature(spec),
      timestamp: now(),
      stream: true,
      type: "metadata",
    },
    framesFor(event: RunEvent): Frame[] {
      switch (event.type) {
        case "start":
          return [{ event: "start", data: { timestamp: now() } }];
        case "chunk":
          return [{ event: "chunk", data: { content: event.content, timestamp: now() } }];
        case "finish":
          return [
            { event: "usage", data: event.usage },
            { event: "end", data: { job_id: jobId, usage: event.usage, timestamp: now(), complete: true } },
            { event: "done", data: { timestamp: now() } },
          ];
        case "awaiting_approval":
          return [approvalFrame(jobId, event)];
        case "error":
          return [errorFrame(event.error)];
        default:
          return [];
      }
    },
    endingOf(run) {
      const content = run.kind === "agent" ? run.output?.outputs.at(-1)?.content : undefined;
      return [answerChunk(content), { type: "finish", usage: run.usage }];
    },
  };
}
