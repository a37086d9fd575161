import { config } from "../../shared/config";
import { boundText, TOOL_RESULT_MAX_CHARS } from "../../shared/limits/outside-content";
import type { BuiltinTool } from "../../shared/tools/builtin-tools";
import { scrapePage, ScrapeRefusedError } from "../tools/web-scraper";
import { SearchFailedError, searchResultText, webSearch } from "../tools/web-search";
import type { AgentContext } from "./agent-context";
import type { FunctionTool } from "./function-tools";
import type { StepRecorder } from "./step-recorder";
import { noteResultCut } from "./truncation-notes";

/** The function tool the model is offered for a built-in tool. */
export function builtinFunctionTool(tool: BuiltinTool): FunctionTool {
  if (tool === "auto_search")
    return {
      type: "function",
      function: {
        name: "auto_search",
        description:
          "Search the web for current information. Returns the most relevant pages with their titles, URLs and text excerpts.",
        parameters: {
          type: "object",
          properties: { query: { type: "string", description: "What to search the web for" } },
          required: ["query"],
        },
      },
    };
  return {
    type: "function",
    function: {
      name: "web_scraper",
      description: "Fetch a public web page and return its readable text.",
      parameters: {
        type: "object",
        properties: { url: { type: "string", description: "The page's full http(s) URL" } },
        required: ["url"],
      },
    },
  };
}

/** The one string argument a built-in tool takes, or null when the model sent none. */
function argumentOf(tool: BuiltinTool, args: string): string | null {
  try {
    const value = (JSON.parse(args) as Record<string, unknown> | null)?.[tool === "auto_search" ? "query" : "url"];
    return typeof value === "string" && value.trim() ? value : null;
  } catch {
    return null;
  }
}

/** Runs the tool; a refusal or provider failure is text for the model, not the run's failure. */
async function execute(tool: BuiltinTool, argument: string, signal: AbortSignal): Promise<string> {
  try {
    if (tool === "auto_search") return searchResultText(argument, await webSearch(argument, { signal }));
    const text = await scrapePage(argument, signal);
    return text ? `Content of ${argument}:\n\n${text}` : `The page ${argument} has no readable text.`;
  } catch (err) {
    if (err instanceof SearchFailedError) return `Search failed: ${err.message}.`;
    if (err instanceof ScrapeRefusedError) return `Could not read ${argument}: ${err.message}.`;
    throw err;
  }
}

/**
 * One call of a built-in tool, as a recorded step (`model` `tool:<name>`), so a retried job replays
 * a finished search instead of repeating it. Calls beyond `TOOL_MAX_CALLS_PER_RUN` are answered
 * with a refusal instead of run; results are cut to `TOOL_RESULT_MAX_CHARS` (the setting, at most
 * the bound of every tool result) with a marker saying so.
 */
export async function callBuiltinTool(
  tool: BuiltinTool,
  args: string,
  agentName: string,
  ctx: AgentContext,
  lane: StepRecorder,
): Promise<string> {
  const settings = config.builtinTools;
  const argument = argumentOf(tool, args);
  if (!argument) return `Invalid ${tool} call: give ${tool === "auto_search" ? "a query" : "a url"}.`;
  if (ctx.usage.builtinCalls >= settings.maxCallsPerRun)
    return `${tool} is not available any more: this run has used its ${settings.maxCallsPerRun} built-in tool calls. Answer with what you have.`;
  ctx.usage.builtinCalls++;
  const outcome = await lane.step(
    { agentName, role: "tool", model: `tool:${tool}`, input: { tool, arguments: args } },
    async () => {
      const max = Math.min(settings.resultMaxChars, TOOL_RESULT_MAX_CHARS);
      const { text, cut } = boundText(await execute(tool, argument, ctx.signal), max);
      return { output: { text, ...(cut ? { truncated: cut } : {}) }, inputTokens: 0, outputTokens: 0, cost: 0 };
    },
  );
  noteResultCut(ctx.recorder, agentName, tool, outcome.output);
  return (outcome.output as { text: string }).text;
}
