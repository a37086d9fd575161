import type { AdvancedResearchRun } from "../../db/entities/run.entity";

/**
 * The SDK's AdvancedResearchCreateCompletionResponse of a session. A batch item that failed keeps
 * its slot in the same shape (the SDK types every field nullable): null outputs and sources, the
 * usage spent until it failed, and its `error`.
 */
export function presentAdvancedResearch(run: AdvancedResearchRun) {
  const { request, output, usage } = run;
  const failed = run.status !== "succeeded";
  return {
    id: run.job_id,
    name: request.config.name ?? null,
    description: request.config.description ?? null,
    outputs: failed ? null : (output?.outputs ?? []),
    sources: failed ? null : (output?.sources ?? 0),
    characters_per_source: request.config.exa_search_max_characters,
    timestamp: (run.finished_at ?? new Date()).toISOString(),
    usage: usage && {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      total_tokens: usage.total_tokens,
      searches: usage.searches,
      search_cost: usage.search_cost,
      agent_cost: usage.agent_cost,
      total_cost: usage.total_cost,
    },
    ...(failed ? { error: run.error ?? { message: `The session ended ${run.status}`, code: "RUN_FAILED" } } : {}),
  };
}
