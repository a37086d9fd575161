/** Deeper than any request of ours needs; deep enough input makes recursive code (JSON.stringify, clones) overflow the stack. */
export const MAX_JSON_DEPTH = 64;

export type JsonHazard = { kind: "depth" } | { kind: "text"; path: (string | number)[]; inKey: boolean };

/**
 * Text Postgres cannot store: a NUL character (refused in `text` and `jsonb`) or a UTF-16
 * surrogate without its pair (JSON allows it as an escape; `jsonb` and UTF-8 do not).
 */
export function isStorableText(text: string): boolean {
  return !text.includes("\u0000") && text.isWellFormed();
}

/**
 * The first thing in a parsed JSON value that the service cannot safely handle: nesting deeper
 * than `maxDepth`, or a string or key that cannot be stored. Walks without recursion, so the
 * check itself cannot overflow the stack.
 */
export function findJsonHazard(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonHazard | null {
  const pending: { node: unknown; path: (string | number)[] }[] = [{ node: value, path: [] }];
  while (pending.length > 0) {
    const { node, path } = pending.pop()!;
    if (typeof node === "string") {
      if (!isStorableText(node)) return { kind: "text", path, inKey: false };
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    if (path.length >= maxDepth) return { kind: "depth" };
    if (Array.isArray(node)) {
      node.forEach((item, i) => pending.push({ node: item, path: [...path, i] }));
      continue;
    }
    for (const [key, item] of Object.entries(node)) {
      if (!isStorableText(key)) return { kind: "text", path: [...path, key], inKey: true };
      pending.push({ node: item, path: [...path, key] });
    }
  }
  return null;
}
