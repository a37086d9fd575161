import type { Context } from "koa";
import { config } from "../../shared/config";
import type { Run } from "../../shared/db/entities/run.entity";
import { findRun, isTerminal } from "../../shared/db/run-store";
import { readRunEvents, type RunEvent } from "../../shared/queues/run-events";
import { createRedis } from "../../shared/queues/redis";
import type { ApiDeps } from "../deps";
import { openSse, type SseStream } from "../http/sse";

/** How one kind of run is shown as Server-Sent Events. */
export interface StreamFormat {
  /** The first frame, sent before the run starts. */
  metadata: Record<string, unknown>;
  /** Sends the frames for one worker event; true when the stream is over. */
  relay(sse: SseStream, event: RunEvent): boolean;
  /** Ends the stream from the run row, when the worker's events were lost (e.g. a Redis restart). */
  finishFromRow(sse: SseStream, run: Run): void;
}

export const now = () => new Date().toISOString();

/**
 * Streams a run: the metadata frame, then the worker's events relayed as they arrive from the run's
 * Redis stream, until the format says the stream is over. A client that goes away stops the
 * relay, not the run. When the run ends without its final events, the row tells the ending.
 */
export async function streamRun(deps: ApiDeps, ctx: Context, runId: string, format: StreamFormat): Promise<void> {
  const sse = openSse(ctx);
  sse.send(format.metadata);
  const reader = createRedis("blocking");
  const deadline = Date.now() + config.http.syncWaitMs;
  let lastId = "0";
  try {
    while (!sse.closed) {
      const batch = await readRunEvents(reader, runId, lastId, 1_000);
      for (const { id, event } of batch) {
        lastId = id;
        if (format.relay(sse, event)) return;
      }
      if (batch.length > 0) continue;
      const run = await findRun(deps.ds, runId);
      if (run && isTerminal(run.status)) {
        // One last read: the final events may have landed just after the blocking read returned.
        for (const { event } of await readRunEvents(reader, runId, lastId, 1)) if (format.relay(sse, event)) return;
        return format.finishFromRow(sse, run);
      }
      if (Date.now() > deadline) {
        sse.send(
          {
            error: `The run is still in progress; fetch it later with GET /v1/jobs/${runId}`,
            job_id: runId,
            timestamp: now(),
          },
          "error",
        );
        return;
      }
    }
  } finally {
    reader.disconnect();
    sse.close();
  }
}
