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

/** A value waiting to be looked at: its parent's entry and its own key, so no path is built until one is needed. */
interface Pending {
  node: unknown;
  depth: number;
  parent: Pending | null;
  key: string | number | null;
}

/** The path to an entry, built only for the one a hazard is found in. */
function pathOf(entry: Pending): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Pending | null = entry; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The first thing in a parsed JSON value that the service cannot safely handle: nesting deeper
 * than `maxDepth`, or (unless `text` is false) a string or key that cannot be stored. Walks without recursion, so the
 * check itself cannot overflow the stack, and in time and memory linear in the value: each entry
 * holds its parent and key (a copy of the whole path per value made a 4 MB body of nested arrays
 * take 10 s and 2.3 GB), and numbers, booleans and null are never queued.
 */
export function findJsonHazard(
  value: unknown,
  maxDepth = MAX_JSON_DEPTH,
  { text = true }: { text?: boolean } = {},
): JsonHazard | null {
  const pending: Pending[] = [{ node: value, depth: 0, parent: null, key: null }];
  while (pending.length > 0) {
    const entry = pending.pop()!;
    const { node, depth } = entry;
    if (typeof node === "string") {
      if (text && !isStorableText(node)) return { kind: "text", path: pathOf(entry), inKey: false };
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    if (depth >= maxDepth) return { kind: "depth" };
    const queue = (item: unknown, key: string | number) => {
      if (typeof item === "string" || (item !== null && typeof item === "object"))
        pending.push({ node: item, depth: depth + 1, parent: entry, key });
    };
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) queue(node[i], i);
      continue;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (text && !isStorableText(key)) return { kind: "text", path: [...pathOf(entry), key], inKey: true };
      queue((node as Record<string, unknown>)[key], key);
    }
  }
  return null;
}
