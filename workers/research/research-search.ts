import { config } from "../../shared/config";
import type { AgentContext } from "../agents/agent-context";
import type { StepRecorder } from "../agents/step-recorder";
import { SearchFailedError, searchResultText, webSearch } from "../tools/web-search";

/** What one researcher's search gave: the text it reads and the URLs it cites. */
export interface ResearchSearch {
  text: string;
  urls: string[];
}

/**
 * One web search of a researcher, as a recorded step (`tool:auto_search`), so a retried job
 * replays it instead of paying for it again. Counted against `TOOL_MAX_CALLS_PER_RUN`; a provider
 * failure is text the researcher reads, not the run's failure.
 */
export async function researchSearch(
  query: string,
  options: { numResults: number; maxCharacters: number },
  agentName: string,
  ctx: AgentContext,
  lane: StepRecorder,
): Promise<ResearchSearch> {
  const limit = config.builtinTools.maxCallsPerRun;
  if (ctx.usage.builtinCalls >= limit)
    return { text: `Not searched: this run has made its ${limit} searches.`, urls: [] };
  ctx.usage.builtinCalls++;
  const outcome = await lane.step(
    { agentName, role: "tool", model: "tool:auto_search", input: { tool: "auto_search", query } },
    async () => {
      let found: ResearchSearch;
      try {
        const hits = await webSearch(query, { ...options, signal: ctx.signal });
        found = { text: searchResultText(query, hits), urls: hits.map((h) => h.url) };
      } catch (err) {
        if (!(err instanceof SearchFailedError)) throw err;
        found = { text: `Search failed: ${err.message}.`, urls: [] };
      }
      return { output: found, inputTokens: 0, outputTokens: 0, cost: 0 };
    },
  );
  return outcome.output as ResearchSearch;
}
