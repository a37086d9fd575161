import { EgressRefusedError } from "../../shared/net/egress";
import type { DeliveryAttempt } from "../../shared/webhooks/webhook-deliveries";
import type { WebhookHeaders } from "../../shared/webhooks/webhook-signature";

/** The most of a receiver's answer read: its status is what counts, the body is only drained. */
const MAX_RESPONSE_BYTES = 4_096;

/** An attempt's record, and whether the receiver took the delivery (a 2xx). */
export type AttemptResult = DeliveryAttempt & { delivered: boolean };

/** Reads at most `MAX_RESPONSE_BYTES` of the answer, then lets the rest go unread. */
async function drain(res: Response): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let read = 0;
  try {
    while (read <= MAX_RESPONSE_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Why an attempt got no answer, in words safe to show the account (never the URL, which may carry a token). */
function failureOf(err: unknown, timeoutMs: number): string {
  if (err instanceof EgressRefusedError) return err.message;
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError"))
    return `no answer within ${timeoutMs} ms`;
  const code = (err as { code?: unknown; cause?: { code?: unknown } } | null)?.code;
  return typeof code === "string" ? `connection failed (${code})` : "connection failed";
}

/**
 * One POST of a delivery: through the egress policy's fetch (the address connected to is checked
 * again, so a name that resolves elsewhere now is refused), redirects not followed (a 3xx is a
 * failed attempt), the whole attempt bounded by `timeoutMs`, and the answer read no further than a
 * few KB. Never throws: the result says what happened.
 */
export async function attemptDelivery(
  fetchVia: typeof fetch,
  url: string,
  body: string,
  headers: WebhookHeaders,
  timeoutMs: number,
): Promise<AttemptResult> {
  const at = new Date().toISOString();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetchVia(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Apiary-Webhooks/1", ...headers },
      body,
      redirect: "manual",
      signal,
    });
    await drain(res).catch(() => undefined);
    return { at, status_code: res.status, delivered: res.status >= 200 && res.status < 300 };
  } catch (err) {
    return { at, error: failureOf(err, timeoutMs), delivered: false };
  }
}
