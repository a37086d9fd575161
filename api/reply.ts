/** What a service hands back to its route: status, body and any headers. */
export type Reply = { status: number; body: unknown; headers?: Record<string, string> };

/** 202 answer for `Prefer: respond-async`: where to look for the result. */
export function acceptedReply(runId: string): Reply {
  const url = `/v1/jobs/${runId}`;
  return {
    status: 202,
    body: { job_id: runId, status: "queued", status_url: url },
    headers: { Location: url, "Preference-Applied": "respond-async" },
  };
}
