import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import type { RunEvent } from "../../shared/queues/run-events";
import { now, type StreamFormat } from "./run-stream";
import type { SseStream } from "../http/sse";

/** E5's frames (CONTRACT.md): metadata, start, chunk…, usage, end, done; or one error. */
export function agentStreamFormat(jobId: string, request: AgentCompletionRequest): StreamFormat {
  const spec = request.agent_config;
  const relay = (sse: SseStream, event: RunEvent): boolean => {
    switch (event.type) {
      case "start":
        sse.send({ timestamp: now() }, "start");
        return false;
      case "chunk":
        sse.send({ content: event.content, timestamp: now() }, "chunk");
        return false;
      case "finish":
        sse.send(event.usage, "usage");
        sse.send({ job_id: jobId, usage: event.usage, timestamp: now(), complete: true }, "end");
        sse.send({ timestamp: now() }, "done");
        return true;
      case "error":
        sse.send({ error: event.error, timestamp: now() }, "error");
        return true;
      default:
        return false;
    }
  };
  return {
    metadata: {
      job_id: jobId,
      success: true,
      name: spec.agent_name ?? null,
      description: spec.description ?? null,
      temperature: spec.temperature ?? null,
      timestamp: now(),
      stream: true,
      type: "metadata",
    },
    relay,
    finishFromRow(sse, run) {
      if (run.status !== "succeeded") {
        relay(sse, {
          type: "error",
          error: run.error?.message ?? `The run ended as ${run.status}`,
        });
        return;
      }
      const content = run.kind === "agent" ? run.output?.outputs.at(-1)?.content : undefined;
      relay(sse, { type: "chunk", content: typeof content === "string" ? content : JSON.stringify(content) });
      relay(sse, { type: "finish", usage: run.usage });
    },
  };
}
