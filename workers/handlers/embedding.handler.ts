import type { EmbeddingRunUsage } from "../../shared/contracts/embedding-run";
import type { EmbeddingRun } from "../../shared/db/entities/run.entity";
import { roundCost } from "../../shared/llm/pricing";
import { resolveModel } from "../../shared/llm/providers";
import { revealedRequest } from "../../shared/secrets/run-secrets";
import type { UsageCounter } from "../agents/agent-context";
import { recordedEmbeddingCall } from "../agents/recorded-embedding-call";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";

/** An embeddings run's usage: its input tokens and what its call cost (`embeddingCost`, summed by the usage counter). */
function embeddingUsage(usage: UsageCounter): EmbeddingRunUsage {
  return { input_tokens: usage.inputTokens, total_tokens: usage.inputTokens, total_cost: roundCost(usage.tokenCost) };
}

/** `POST /v1/embeddings`: one call to the embedding model for a stored run, its vectors and usage written to the row. */
export const handleEmbedding: Handler<"embedding"> = ({ runId }, ctx) =>
  executeRun<EmbeddingRun>(runId, ctx, {
    kind: "embedding",
    async execute({ run, recorder, budget, usage, signal }) {
      const request = revealedRequest(run);
      const output = await recordedEmbeddingCall(
        { budget, usage, signal },
        recorder,
        resolveModel(request.model),
        request,
      );
      return { output, usage: embeddingUsage(usage), log: { inputs: output.embeddings.length } };
    },
    usageSoFar: ({ usage }) => embeddingUsage(usage),
  });
