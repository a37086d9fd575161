import type { RedisClient } from "./redis";
import { config } from "../config";

/** The pub/sub channel on which run cancellations are broadcast to every worker. */
const cancelChannel = () => `${config.queue.prefix}:cancel`;

/** Tells every worker to abort a run (only the one holding it has anything to abort). */
export async function publishCancel(redis: RedisClient, runId: string): Promise<void> {
  await redis.publish(cancelChannel(), runId);
}

/**
 * A worker's side of cancellation: one subscription per process, and an AbortController per run
 * in hand, so a cancel reaches the in-flight LLM request within moments, whichever worker holds it.
 */
export class CancelListener {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly subscriber: RedisClient) {
    subscriber.on("message", (channel: string, runId: string) => {
      if (channel === cancelChannel()) this.running.get(runId)?.abort(new Error("cancelled by the client"));
    });
  }

  async start(): Promise<void> {
    await this.subscriber.subscribe(cancelChannel());
  }

  /** The signal that fires when this run is cancelled; call `release` when the run ends. */
  track(runId: string): AbortSignal {
    const controller = new AbortController();
    this.running.set(runId, controller);
    return controller.signal;
  }

  release(runId: string): void {
    this.running.delete(runId);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
  }
}
