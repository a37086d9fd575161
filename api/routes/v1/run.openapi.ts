import { acceptedRunSchema } from "../../schemas/job-response.schema";
import type { OtherContent, ResponseSpec, SharedHeader } from "../../openapi/operation";
import { apiError } from "../../openapi/shared-parts";

/** The parts every run-creating operation (agent and swarm completions and batches) documents alike. */

export const RUN_HEADERS: SharedHeader[] = [
  "Prefer",
  "Idempotency-Key",
  "X-Stainless-Retry-Count",
  "X-Stainless-Timeout",
];

/** `x-should-retry`: whether sending the same request again can change the answer (the official SDKs obey it). */
const shouldRetry = (helps: boolean) => ({
  "x-should-retry": {
    description: helps ? "`true`: a retry waits for the run again" : "`false`: a retry gets this answer again",
    schema: { type: "string", enum: [String(helps)] },
  },
});

export const acceptedResponse: ResponseSpec = {
  description: "`Prefer: respond-async` was given (or a batch outlived the wait): the run is queued; poll `status_url`",
  body: acceptedRunSchema,
  headers: {
    Location: { description: "`/v1/jobs/{job_id}`", schema: { type: "string" } },
    "Preference-Applied": { description: "`respond-async`", schema: { type: "string" } },
  },
  examples: {
    queued: {
      value: {
        job_id: "6a0c1f9e-2b1d-4c55-9a57-3f0f2d1c8b7e",
        status: "queued",
        status_url: "/v1/jobs/6a0c1f9e-2b1d-4c55-9a57-3f0f2d1c8b7e",
      },
    },
  },
};

/** What a run can end in besides success, and what can refuse it before it starts. */
export const runErrorResponses: Record<number, ResponseSpec> = {
  409: {
    ...apiError(
      "The run was cancelled (`RUN_CANCELLED`, with `job_id`, and the `agents` and `usage` the worker had stored by then)",
    ),
    headers: shouldRetry(false),
  },
  500: {
    ...apiError(
      "The run failed, with the failure's own `code` (as `GET /v1/jobs/{job_id}` gives it: `LLM_CALL_FAILED`, `AGENT_FAILED`, `BUDGET_EXCEEDED`, `EGRESS_REFUSED`…; `RUN_FAILED` when there is none), `job_id`, the failing `agent`, each agent's outcome (`agents`) and what it spent (`usage`); never a transcript dressed as success. A model its provider does not have ends the run as the 400 `UNKNOWN_MODEL` instead, with the same fields",
    ),
    headers: shouldRetry(false),
  },
  503: apiError("The job queue is unavailable (`SERVICE_UNAVAILABLE`)"),
  504: {
    ...apiError(
      "The run is still going when the wait ends (`RUN_TIMEOUT`, with `job_id`): read it later with `GET /v1/jobs/{job_id}`, where `Location` points",
    ),
    headers: {
      Location: { description: "`/v1/jobs/{job_id}`: where the run's result will be", schema: { type: "string" } },
      "Retry-After": {
        description: "Seconds before reading the run again is worth it",
        schema: { type: "integer", minimum: 1 },
      },
      ...shouldRetry(true),
    },
  },
};

/** The 400s of agents' marketplace fields, found before any run exists. */
export const MARKETPLACE_400 =
  "a `marketplace_prompt_id` the caller may not use (`MARKETPLACE_PROMPT_UNAVAILABLE`), an agent with `publish_to_marketplace` that the marketplace's rules refuse (`INVALID_MARKETPLACE_PUBLICATION`)";

/** The 400 of a request's MCP server and image URLs, found before any run exists. */
export const EGRESS_400 =
  "an MCP server or image URL at a loopback, private, link-local or otherwise non-public address, or at a name that resolves to one, does not resolve or does not resolve within 5 s, that the operator's `EGRESS_ALLOW` does not allow (`EGRESS_REFUSED`, one message whatever the reason)";

/** Refusals of `publish_to_marketplace` besides its 400s (nothing is published or run), with the statuses they share. */
export const publishingResponses: Record<number, ResponseSpec> = {
  429: {
    ...apiError(
      "A rate limit of the key is reached (`RATE_LIMITED`), or publishing the agents would pass the caller's daily marketplace limit (`DAILY_LIMIT_EXCEEDED`, with `reset_time`)",
    ),
    headers: {
      "Retry-After": { description: "Seconds to wait (rate limits)", schema: { type: "integer", minimum: 1 } },
    },
  },
  503: apiError(
    "The job queue is unavailable (`SERVICE_UNAVAILABLE`), or the price or content review an agent's publication needs is (`PRICE_UNAVAILABLE`, `CONTENT_SCORING_UNAVAILABLE`)",
  ),
};

export const EXAMPLE_TIMESTAMP = "2026-01-15T10:30:00.000Z";

/** A Server-Sent Events answer: what its frames are, and an example stream made of `frames`. */
export function eventStream(description: string, frames: string[]): Record<string, OtherContent> {
  return { "text/event-stream": { schema: { type: "string" }, description, example: `${frames.join("\n\n")}\n\n` } };
}
