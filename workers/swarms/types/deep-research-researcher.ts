import { config } from "../../../shared/config";
import { offeredBuiltinTools } from "../../../shared/tools/builtin-tools";

/**
 * THE SEAM for research tools: the built-in tools every research turn of DeepResearchSwarm gets, on
 * top of the tools its researcher was given (function tools, MCP servers). As the reference
 * framework's researchers do, they search the web: `auto_search` when this deployment offers it (the
 * operator configured a search provider), billed once per run like an agent's. Without a provider
 * none, and research is the researchers' own knowledge and tools.
 */
export function researchTools(settings = config.builtinTools): string[] {
  return offeredBuiltinTools(settings).includes("auto_search") ? ["auto_search"] : [];
}

/** The researcher's input: the task for context, its own query, and whether it can search the web. */
export function researchInput(task: string, query: string, tools: readonly string[]): string {
  const search = tools.includes("auto_search")
    ? "You can search the web with auto_search: search for current sources on this query, and cite the URL of every source you use. "
    : "";
  return `Research task:\n${task}\n\nYour query:\n${query}\n\n${search}Research this query thoroughly and report what you found, with sources and how reliable they are.`;
}
