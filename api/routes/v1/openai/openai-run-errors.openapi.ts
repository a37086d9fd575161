import type { ResponseSpec } from "../../../openapi/operation";
import { openAiError } from "../../../openapi/shared-parts";

/** The answers every OpenAI-compatible run path shares once its request is taken: a run's ends and idempotency, in OpenAI's body. */
export const openAiRunErrorResponses: Record<number, ResponseSpec> = {
  409: openAiError(
    "The run was cancelled (`run_cancelled`), or an `Idempotency-Key` conflict (`idempotency_key_reused`, `idempotency_key_in_progress`, `idempotency_replay_unavailable`)",
  ),
  500: openAiError("The run failed (`run_failed`, with `job_id`), or an internal error (with `request_id`)"),
  504: {
    ...openAiError("The run is still going when the wait ends (`run_timeout`, with `job_id`)"),
    headers: { Location: { description: "`/v1/jobs/{job_id}`", schema: { type: "string" } } },
  },
};
