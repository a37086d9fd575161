import type { Context } from "koa";
import { config } from "../../shared/config";
import type { AgentCompletionRequest, AgentRunOutput } from "../../shared/contracts/agent-spec";
import { findRun, isTerminal } from "../../shared/db/run-store";
import { readRunEvents, type RunEvent } from "../../shared/queues/run-events";
import { createRedis } from "../../shared/queues/redis";
import type { ApiDeps } from "../deps";
import { openSse, type SseStream } from "./sse";

const now = () => new Date().toISOString();

/** Sends one worker event as the E5 frames of CONTRACT.md; true when the stream is over. */
function relay(sse: SseStream, jobId: string, event: RunEvent): boolean {
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
}

/** When the events were lost (e.g. a Redis restart), the run row still tells the ending. */
function finishFromRow(sse: SseStream, jobId: string, run: NonNullable<Awaited<ReturnType<typeof findRun>>>): void {
  if (run.status === "succeeded") {
    const content = (run.output as AgentRunOutput).outputs.at(-1)?.content;
    relay(sse, jobId, { type: "chunk", content: typeof content === "string" ? content : JSON.stringify(content) });
    relay(sse, jobId, { type: "finish", usage: run.usage });
  } else {
    relay(sse, jobId, { type: "error", error: (run.error as { message?: string } | null)?.message ?? `The run ended as ${run.status}` });
  }
}

/**
 * E5 streaming: the metadata frame, then the worker's events relayed as they arrive from the run's
 * Redis stream, ending with usage, `end` and `done` (or one `error`). A client that goes away
 * stops the relay, not the run.
 */
export async function streamAgentRun(deps: ApiDeps, ctx: Context, runId: string, request: AgentCompletionRequest): Promise<void> {
  const sse = openSse(ctx);
  const spec = request.agent_config;
  sse.send({
    job_id: runId,
    success: true,
    name: spec.agent_name ?? null,
    description: spec.description ?? null,
    temperature: spec.temperature ?? null,
    timestamp: now(),
    stream: true,
    type: "metadata",
  });
  const reader = createRedis("blocking");
  const deadline = Date.now() + config.http.syncWaitMs;
  let lastId = "0";
  try {
    while (!sse.closed) {
      const batch = await readRunEvents(reader, runId, lastId, 1_000);
      for (const { id, event } of batch) {
        lastId = id;
        if (relay(sse, runId, event)) return;
      }
      if (batch.length === 0) {
        const run = await findRun(deps.ds, runId);
        if (run && isTerminal(run.status)) {
          // One last read: the final events may have landed just after the blocking read returned.
          const tail = await readRunEvents(reader, runId, lastId, 1);
          for (const { event } of tail) if (relay(sse, runId, event)) return;
          return finishFromRow(sse, runId, run);
        }
        if (Date.now() > deadline) {
          sse.send({ error: `The run is still in progress; fetch it later with GET /v1/jobs/${runId}`, job_id: runId, timestamp: now() }, "error");
          return;
        }
      }
    }
  } finally {
    reader.disconnect();
    sse.close();
  }
}
