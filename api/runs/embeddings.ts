import type { KeyOwner } from "../../shared/auth/api-keys";
import type { EmbeddingRunRequest } from "../../shared/contracts/embedding-run";
import { presentEmbeddings } from "../../shared/runs/presenters/embedding.presenter";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { completeRun, type CompletionKind } from "./complete-run";
import { prepareEmbeddingRequest, type EmbeddingBody } from "./embedding-request";
import type { RunHooks } from "./ready-agents";
import type { Prefer } from "../spine/prefer";

/** An embeddings request, stored as an `embedding` run: no agents, images or secrets, never streamed. */
const embeddingCompletion: CompletionKind<EmbeddingRunRequest, "embedding", EmbeddingBody> = {
  kind: "embedding",
  prepare: prepareEmbeddingRequest,
  agentsOf: () => ({ specs: [], images: [] }),
  withAgents: (request) => request,
  withholdSecrets: (request) => ({ request, secrets: [] }),
  // Never called: the request's `stream` is always false.
  streamFormat: () => {
    throw new Error("An embeddings run is never streamed");
  },
  present: presentEmbeddings,
};

/**
 * `POST /v1/embeddings`: one embedding run, with a completion's limits, budget, billing,
 * idempotency and logs; the answer is OpenAI's embeddings list.
 */
export function completeEmbeddings(
  deps: ApiDeps,
  body: EmbeddingBody,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, embeddingCompletion, body, owner, prefer, hooks);
}
