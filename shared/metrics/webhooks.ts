import { Counter, Gauge } from "prom-client";
import { PREFIX, workerRegistry } from "./registry";

const registers = [workerRegistry];

/** Where the webhook sender reads the deliveries' counts from (its store), set when it starts. */
let countSource: (() => Promise<Record<"pending" | "failed", number>>) | null = null;

new Gauge({
  name: `${PREFIX}webhook_deliveries`,
  help: "Webhook deliveries by state: pending (due or waiting for a retry) and failed (every attempt used); read from Postgres when scraped",
  labelNames: ["status"] as const,
  registers,
  async collect() {
    if (!countSource) return;
    const counts = await countSource();
    for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
  },
});

const attempts = new Counter({
  name: `${PREFIX}webhook_attempts_total`,
  help: "Webhook delivery attempts, by outcome: delivered (2xx), retried (to be attempted again), failed (the last attempt failed)",
  labelNames: ["outcome"] as const,
  registers,
});

/** Tells the deliveries gauge where to count from (the sender's store). */
export function countWebhookDeliveriesFrom(source: () => Promise<Record<"pending" | "failed", number>>): void {
  countSource = source;
}

/** Counts one delivery attempt by what came of it. */
export function countWebhookAttempt(outcome: "delivered" | "retried" | "failed"): void {
  attempts.inc({ outcome });
}
