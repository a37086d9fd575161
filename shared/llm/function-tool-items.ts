/** OpenAI's rule for function names; other providers accept a subset of it at most. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The function a `tools_list_dictionary` item defines: clients send the OpenAI shape
 * (`{type: "function", function: {...}}`) or the bare function (`{name, description, parameters}`).
 * The API's check and the worker read items through this one function, so they cannot disagree.
 */
export function functionOfToolItem(item: Record<string, unknown>): Record<string, unknown> {
  const inner = item.function;
  return item.type === "function" && inner !== null && typeof inner === "object" && !Array.isArray(inner)
    ? (inner as Record<string, unknown>)
    : item;
}
