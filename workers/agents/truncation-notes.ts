import { TOOL_ARGUMENTS_MAX_CHARS, type Truncation } from "../../shared/limits/outside-content";
import type { McpListCut } from "./mcp/mcp-toolbox";
import type { StepRecorder } from "./step-recorder";

/** Notes each MCP server whose tool list was cut to the bounds, as the run's answer lists it. */
export function noteToolListCuts(recorder: StepRecorder, agent: string, cuts: readonly McpListCut[]): void {
  for (const { server, received, kept } of cuts)
    recorder.truncations.push({ what: "tool_list", agent, source: server, received, kept, unit: "tools" });
}

/**
 * Notes a tool result that was cut, read from its step's output (`truncated`), so a step a
 * retried job replays is noted as the first attempt's was.
 */
export function noteResultCut(recorder: StepRecorder, agent: string, tool: string, output: unknown): void {
  const cut = (output as { truncated?: { received: number; kept: number } } | null)?.truncated;
  if (cut) recorder.truncations.push({ what: "tool_result", agent, source: tool, ...cut, unit: "characters" });
}

/**
 * The refusal the model reads instead of running a tool call whose arguments are over
 * `TOOL_ARGUMENTS_MAX_CHARS` (noted as cut to nothing: none of them reached the tool), or null
 * when they are within it. Cut arguments would not be JSON, so they are not sent at all.
 */
export function refuseLongArguments(recorder: StepRecorder, agent: string, tool: string, args: string): string | null {
  if (args.length <= TOOL_ARGUMENTS_MAX_CHARS) return null;
  const note: Truncation = {
    what: "tool_arguments",
    agent,
    source: tool,
    received: args.length,
    kept: 0,
    unit: "characters",
  };
  recorder.truncations.push(note);
  return `Tool call not run: its arguments are ${args.length.toLocaleString("en-US")} characters, over the ${TOOL_ARGUMENTS_MAX_CHARS.toLocaleString("en-US")} a tool call may have. Call it with shorter arguments.`;
}

/**
 * A run's output with what the run cut listed under `truncated` (none: the output as it is). Only
 * an object output has room for it; every run kind that makes LLM or tool calls stores one.
 */
export function withTruncations<T>(output: T, truncations: readonly Truncation[]): T {
  if (!truncations.length || !output || typeof output !== "object" || Array.isArray(output)) return output;
  return { ...output, truncated: [...truncations] };
}
