import { config, type Config } from "../config";

/** The tools the service runs itself when `tools_enabled` names them (the hosted API's two). */
export const BUILTIN_TOOLS = ["auto_search", "web_scraper"] as const;

export type BuiltinTool = (typeof BUILTIN_TOOLS)[number];

type ToolSettings = Config["builtinTools"];

export function isBuiltinTool(name: string): name is BuiltinTool {
  return (BUILTIN_TOOLS as readonly string[]).includes(name);
}

/**
 * The built-in tools this deployment offers: search only with a provider configured, the scraper
 * unless the operator turned it off. A tool not offered is neither listed nor accepted.
 */
export function offeredBuiltinTools(settings: ToolSettings = config.builtinTools): BuiltinTool[] {
  return BUILTIN_TOOLS.filter((tool) =>
    tool === "auto_search" ? Boolean(settings.search.url) : settings.scraper.enabled,
  );
}

/**
 * The one built-in tool a request gets: as the hosted API does, only one is attached and
 * `auto_search` wins over `web_scraper`.
 */
export function chosenBuiltinTool(toolsEnabled: readonly string[] | null | undefined): BuiltinTool | null {
  const named = new Set(toolsEnabled ?? []);
  return BUILTIN_TOOLS.find((tool) => named.has(tool)) ?? null;
}

/** The built-in tools `tools_enabled` names that this deployment does not offer. */
export function unofferedBuiltinTools(
  toolsEnabled: readonly string[] | null | undefined,
  settings: ToolSettings = config.builtinTools,
): BuiltinTool[] {
  const offered = offeredBuiltinTools(settings);
  return BUILTIN_TOOLS.filter((tool) => toolsEnabled?.includes(tool) && !offered.includes(tool));
}
