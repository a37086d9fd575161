import type { DataSource } from "typeorm";
import type { Run } from "../../shared/db/entities/run.entity";
import { findDelivery, urlWithoutQuery } from "../../shared/webhooks/webhook-deliveries";

/** A run's webhook as its job read shows it: where (without the query), its state and each attempt. */
export async function presentWebhookState(ds: DataSource, run: Run): Promise<Record<string, unknown> | null> {
  if (!run.webhook_url) return null;
  const delivery = await findDelivery(ds, run.id);
  return {
    url: urlWithoutQuery(run.webhook_url),
    status: delivery?.status ?? "waiting",
    attempts: delivery?.attempts ?? [],
    next_attempt_at: delivery?.next_attempt_at ? new Date(delivery.next_attempt_at).toISOString() : null,
  };
}
