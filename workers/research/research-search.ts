import { config } from "../../shared/config";
import type { AgentContext } from "../agents/agent-context";
import { incur } from "../agents/run-charges";
import type { StepRecorder } from "../agents/step-recorder";
import { SearchFailedError, searchResultText, webSearch } from "../tools/web-search";

/** What one researcher's search gave: the text it reads and the URLs it cites. */
export interface ResearchSearch {
  text: string;
  urls: string[];
  /** The provider did not answer (an error, a refusal, a timeout): the search is not billed. */
  failed?: true;
}

/**
 * One web search of a researcher, as a recorded step (`tool:auto_search`), so a retried job
 * replays it instead of paying for it again. Counted against `TOOL_MAX_CALLS_PER_RUN`; a provider
 * failure is text the researcher reads, not the run's failure. Its `PRICE_PER_SEARCH` counts in
 * the budget before the search is made (a search the budget cannot pay for stops the run), and is
 * given back when the provider does not answer: the session pays for the searches it got.
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
  const refund = await incur(ctx, { kind: "search", agent: agentName, forStep: lane.nextKey() });
  let found: ResearchSearch;
  try {
    const outcome = await lane.step(
      { agentName, role: "tool", model: "tool:auto_search", input: { tool: "auto_search", query } },
      async () => ({ output: await search(query, options, ctx.signal), inputTokens: 0, outputTokens: 0, cost: 0 }),
    );
    found = outcome.output as ResearchSearch;
  } catch (err) {
    refund();
    throw err;
  }
  if (found.failed) refund();
  return found;
}

/** The provider's results, or the failure as text the researcher reads. */
async function search(
  query: string,
  options: { numResults: number; maxCharacters: number },
  signal: AbortSignal,
): Promise<ResearchSearch> {
  try {
    const hits = await webSearch(query, { ...options, signal });
    return { text: searchResultText(query, hits), urls: hits.map((h) => h.url) };
  } catch (err) {
    if (!(err instanceof SearchFailedError)) throw err;
    return { text: `Search failed: ${err.message}.`, urls: [], failed: true };
  }
}
