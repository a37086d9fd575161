/** A character that can continue a name, so `@Critic` does not match inside `@Critics`. */
const NAME_CHAR = /[\p{L}\p{N}_-]/u;

/** A trie over the agents' names: `index` is set where a name ends. */
interface NameNode {
  next: Map<string, NameNode>;
  index?: number;
}

/**
 * The names as a trie, built once per list of names. A name containing `@` is left out: its
 * mention would overlap the next one, and keeping every walk between two `@` is what keeps the
 * scan linear in the text (the text and the names are both the client's to choose).
 */
const tries = new WeakMap<readonly string[], NameNode>();

function trieOf(names: readonly string[]): NameNode {
  let root = tries.get(names);
  if (root) return root;
  root = { next: new Map() };
  names.forEach((name, index) => {
    if (!name || name.includes("@")) return;
    let node = root!;
    for (const ch of name) {
      let child = node.next.get(ch);
      if (!child) node.next.set(ch, (child = { next: new Map() }));
      node = child;
    }
    node.index ??= index; // two agents of one name: the first answers to it
  });
  tries.set(names, root);
  return root;
}

/**
 * The agents a turn mentions as `@Name`, in order of first mention. Names are matched exactly
 * (case-sensitive, spaces allowed), the longest name winning where one is a prefix of another;
 * an `@` followed by no agent's name is ignored, and a name containing `@` cannot be mentioned.
 * Each `@` walks the trie over the text up to the next `@` at most, so the scan is linear in the
 * text whatever the names (a task can be a megabyte of `@`).
 */
export function mentionedAgents(text: string, names: readonly string[]): number[] {
  const root = trieOf(names);
  const found: number[] = [];
  const seen = new Set<number>();
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    let node: NameNode | undefined = root;
    let best: number | undefined;
    let pos = at + 1;
    // Walk by code point, as the trie was built; a name's end counts only before a non-name character.
    while (pos < text.length) {
      const ch = String.fromCodePoint(text.codePointAt(pos)!);
      node = node.next.get(ch);
      if (!node) break;
      pos += ch.length;
      if (node.index !== undefined && !NAME_CHAR.test(text.charAt(pos))) best = node.index;
    }
    if (best !== undefined && !seen.has(best)) {
      seen.add(best);
      found.push(best);
    }
  }
  return found;
}
