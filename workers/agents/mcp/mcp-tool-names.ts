const MAX_NAME = 64;

/** `name` made acceptable as a function name (`TOOL_NAME_PATTERN`): other characters become `_`, and it is cut to 64. */
export function sanitizeToolName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_NAME);
  return cleaned || "tool";
}

/**
 * A sanitised name not yet in `taken` (suffixes `_2`, `_3`, … and cuts the base so the suffix still
 * fits), added to `taken`. Two servers commonly both offer `search`; the model must be able to
 * name either.
 */
export function uniqueToolName(name: string, taken: Set<string>): string {
  const base = sanitizeToolName(name);
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = base.slice(0, MAX_NAME - suffix.length) + suffix;
  }
  taken.add(candidate);
  return candidate;
}
