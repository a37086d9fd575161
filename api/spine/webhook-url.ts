import { BadRequestError } from "../../shared/errors";
import { EgressRefusedError, egressPolicy } from "../../shared/net/egress";
import type { EgressPolicy } from "../../shared/net/egress-policy";
import { noteEgressRefusals } from "../../shared/net/egress-refusals";
import type { DataSource } from "typeorm";
import { MAX_WEBHOOK_URL_LENGTH } from "../../shared/webhooks/webhook-deliveries";
import { ensureSecret } from "../../shared/webhooks/webhook-secrets";

/** A request's `webhook_url` (after its schema: trimmed), or null without one. */
export function webhookUrlOf(request: unknown): string | null {
  if (typeof request !== "object" || request === null || Array.isArray(request)) return null;
  const url = (request as { webhook_url?: unknown }).webhook_url;
  return typeof url === "string" && url !== "" ? url : null;
}

/** The request as stored: without its `webhook_url`, which the run keeps in a column of its own. */
export function withoutWebhookUrl<R>(request: R): R {
  if (typeof request !== "object" || request === null || Array.isArray(request) || !("webhook_url" in request))
    return request;
  const { webhook_url: _url, ...rest } = request as R & { webhook_url?: unknown };
  return rest as R;
}

/** Why a URL is no webhook URL by its spelling alone, or null when it may be one. */
function spellingProblem(url: string, policy: EgressPolicy): string | null {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return `is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "is not a URL";
  }
  if (parsed.protocol === "https:") return null;
  if (parsed.protocol === "http:" && policy.namesHost(parsed)) return null;
  return "must be an https URL (plain http only to a host EGRESS_ALLOW names)";
}

/**
 * Refuses, before anything is stored, a webhook URL the service must not call: 400
 * `INVALID_WEBHOOK_URL` for one too long, not a URL, or not https (plain http only to a host the
 * operator's `EGRESS_ALLOW` names), 400 `EGRESS_REFUSED` for one the egress policy refuses (a
 * private address, a name resolving to one or not resolving). Each delivery's connection is checked
 * again, since a name may resolve elsewhere later. Messages never echo the URL, which may carry a token.
 */
async function assertWebhookUrlsAllowed(
  urls: readonly { url: string | null; field: string }[],
  policy: EgressPolicy = egressPolicy,
): Promise<void> {
  const given = urls.filter((u): u is { url: string; field: string } => u.url !== null);
  const misspelt = given.flatMap(({ url, field }) => {
    const problem = spellingProblem(url, policy);
    return problem ? [`${field}: ${problem}`] : [];
  });
  if (misspelt.length > 0) throw new BadRequestError(misspelt.join("; "), {}, "INVALID_WEBHOOK_URL");
  const refusals: EgressRefusedError[] = [];
  const problems: string[] = [];
  for (const { url, field } of given) {
    try {
      await policy.check(url);
    } catch (err) {
      if (!(err instanceof EgressRefusedError)) throw err;
      refusals.push(err);
      problems.push(`${field}: ${err.message}`);
    }
  }
  noteEgressRefusals("request", refusals);
  if (problems.length > 0) throw new BadRequestError(problems.join("; "), {}, "EGRESS_REFUSED");
}

/**
 * Checks a run request's webhook URLs (`assertWebhookUrlsAllowed`) and, when it has any, makes the
 * account's signing secret on this first use, so it can be read before the first delivery.
 */
export async function acceptWebhookUrls(
  ds: DataSource,
  userId: string,
  urls: readonly { url: string | null; field: string }[],
): Promise<void> {
  await assertWebhookUrlsAllowed(urls);
  if (urls.some(({ url }) => url !== null)) await ensureSecret(ds, userId);
}
