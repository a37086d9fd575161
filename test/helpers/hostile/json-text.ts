/**
 * Builds JSON bodies that `JSON.stringify` cannot write: numbers out of range (`1e309`), `-0`,
 * lone surrogates as escapes, nesting thousands of levels deep. A value is an ordinary JSON value
 * in which `RawJson` marks a place whose text is spliced in verbatim.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

const TOKEN = (i: number) => `\u0001raw${i}\u0001`;

/** An object with members written as raw text besides its ordinary ones (keys JSON cannot build: `"\\ud800"`, `"__proto__"`). */
export class RawMembers {
  constructor(
    readonly value: Record<string, unknown>,
    readonly members: string,
  ) {}
}

/** The JSON text of a value, with each `RawJson` and `RawMembers` spliced in as written. */
export function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof RawJson || v instanceof RawMembers) {
      raws.push(v instanceof RawJson ? v.text : withMembers(jsonText(v.value), v.members));
      return TOKEN(raws.length - 1);
    }
    return v;
  });
  if (text === undefined) return "";
  // A token is a string of its own in the output (U+0001 escaped), which no probe value contains.
  return raws.reduce((out, raw, i) => out.replace(JSON.stringify(TOKEN(i)), () => raw), text);
}

function withMembers(objectText: string, members: string): string {
  return objectText === "{}" ? `{${members}}` : `{${members},${objectText.slice(1)}`;
}

/** `[[[…]]]` or `{"a":{"a":…}}`, `levels` deep, as text (building it as an object would need the recursion it tests). */
export function deepJson(kind: "array" | "object", levels: number): RawJson {
  return kind === "array"
    ? new RawJson("[".repeat(levels) + "]".repeat(levels))
    : new RawJson('{"a":'.repeat(levels) + "1" + "}".repeat(levels));
}

export type JsonPath = (string | number)[];

/** A copy of `root` with `value` at `path`, creating missing objects (or arrays, for numeric steps) on the way. */
export function withValueAt(root: unknown, path: JsonPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const container: any = Array.isArray(root)
    ? [...root]
    : root && typeof root === "object" && !(root instanceof RawJson)
      ? { ...root }
      : typeof head === "number"
        ? []
        : {};
  container[head] = withValueAt(container[head], rest, value);
  return container;
}

/** A copy of `root` without the key or item at `path`. */
export function withoutValueAt(root: unknown, path: JsonPath): unknown {
  if (path.length === 0) return undefined;
  const [head, ...rest] = path;
  if (!root || typeof root !== "object") return root;
  if (rest.length === 0) {
    if (Array.isArray(root)) return root.filter((_, i) => i !== head);
    const { [head]: _dropped, ...others } = root as Record<string | number, unknown>;
    return others;
  }
  const container: any = Array.isArray(root) ? [...root] : { ...root };
  container[head] = withoutValueAt(container[head], rest);
  return container;
}

/** The value at `path`, or undefined. */
export function valueAt(root: unknown, path: JsonPath): unknown {
  return path.reduce<any>((node, step) => (node && typeof node === "object" ? node[step] : undefined), root);
}

/** `agent_config.mcp_config.url`, `[0].task`: a path as people read it. */
export function pathLabel(path: JsonPath): string {
  if (path.length === 0) return "(root)";
  return path.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`)).join("");
}
