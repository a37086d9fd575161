/** What a use case hands back to its route: status, body and any headers. */
export type Reply = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * One Server-Sent Events frame: an event name (none for a bare `data:` frame) and its JSON data;
 * with `raw`, `data` is a fixed one-line marker sent as it is (OpenAI's `[DONE]`); `id`, its place
 * in the run's event record, where a client resumes (`Last-Event-ID`).
 */
export type Frame = { event?: string; data: unknown; raw?: true; id?: string };

/**
 * Frames a use case hands back to be streamed, produced until they end or `stop` aborts (the
 * client went away: the stream stops, not the work behind it).
 */
export type FrameStream = (stop: AbortSignal) => AsyncIterable<Frame>;

/** What a use case that may stream hands back: a reply, or frames to stream. */
export type Outcome = Reply | { stream: FrameStream };

/** 202 answer for `Prefer: respond-async`: where to look for the result. */
export function acceptedReply(runId: string): Reply {
  const url = `/v1/jobs/${runId}`;
  return {
    status: 202,
    body: { job_id: runId, status: "queued", status_url: url },
    headers: { Location: url, "Preference-Applied": "respond-async" },
  };
}

/**
 * The `x-should-retry` header: whether sending the same request again can change its answer. The
 * Stainless-generated SDKs (swarms-ts, openai) obey it over their own rule (retry 408, 409, 429 and
 * every 5xx), so a run that failed is not started again by a client that would retry a 500.
 */
export function retryHint(helps: boolean): Record<string, string> {
  return { "x-should-retry": helps ? "true" : "false" };
}
