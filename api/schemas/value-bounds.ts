import type Joi from "joi";

/**
 * Most keys any object in a request may have, whatever its schema says. The largest legitimate
 * maps are JSON schemas (a structured-output schema's `properties`, which OpenAI caps at 5,000)
 * and `logit_bias` (a few hundred token ids in practice): twice the first leaves room, and
 * 1,000,000 short keys (9 MB) took joi 6 to 11 s before it ran out of stack.
 */
export const MAX_OBJECT_KEYS = 10_000;

/**
 * Unknown keys tolerated on an object that refuses them before it is refused whole: under this,
 * joi names each (the answer lists 20); over it, one problem names the object and its count,
 * since joi spent 1.8 s and a 16 MB answer naming 50,000.
 */
const UNKNOWN_KEY_SLACK = 64;

type Branch = { schema?: Description; then?: Description; otherwise?: Description; switch?: Branch[] };

/** What `schema.describe()` gives, as far as the bounds read it. */
export type Description = {
  type?: string;
  flags?: { id?: string; unknown?: boolean };
  keys?: Record<string, Description>;
  patterns?: unknown[];
  items?: Description[];
  rules?: { name: string; args?: { limit?: number } }[];
  link?: { ref?: { path?: string[]; type?: string } };
  matches?: Branch[];
  whens?: Branch[];
};

/** Schemas an `id` names, for the `Joi.link`s below them (handoffs are agents, validated as their parent). */
type Named = ReadonlyMap<string, Description>;

/** One schema a value may be validated by, with the names its links resolve in. */
type Candidate = { schema: Description; named: Named };

/** A value no schema describes (`Joi.any()`, an unknown or pattern key): only the global bound applies. */
const ANY: Description = { type: "any" };
/** A value joi checks (under a key pattern, or an unknown key it refuses) that no schema here bounds. */
const CHECKED: Description = { type: "any" };

const maxOf = (schema: Description) => schema.rules?.find((r) => r.name === "max")?.args?.limit;

/** The branches of an alternatives' match or a `when`: a missing branch adds nothing (`missing` says whether one was). */
function branchesOf(branch: Branch): { schemas: Description[]; missing: boolean } {
  if (branch.schema) return { schemas: [branch.schema], missing: false };
  const cases = branch.switch ?? [branch];
  const schemas = cases.flatMap((c) => [c.then, c.otherwise].filter((s): s is Description => s !== undefined));
  const last = cases[cases.length - 1];
  return { schemas, missing: !cases.every((c) => c.then) || !last?.otherwise };
}

/**
 * Every concrete schema `schema` may validate a value with: links resolved, each branch of its
 * alternatives and `when`s. The largest bound among them is the one that holds, so a value over
 * all of them is refused by whichever applies. Recursion follows the schema, never the value.
 */
function candidatesOf(schema: Description, named: Named, out: Candidate[] = []): Candidate[] {
  if (schema.type === "link") {
    const [id] = schema.link?.ref?.type === "local" ? (schema.link.ref.path ?? []) : [];
    const target = id === undefined ? undefined : named.get(id);
    return candidatesOf(target ?? ANY, named, out);
  }
  if (schema.flags?.id) named = new Map(named).set(schema.flags.id, schema);
  if (schema.whens) {
    const { whens, ...base } = schema;
    let baseAlone = false;
    for (const when of whens) {
      const { schemas, missing } = branchesOf(when);
      baseAlone ||= missing;
      for (const branch of schemas) candidatesOf(branch, named, out);
    }
    // A branch is joined to the base; the base alone applies where a branch is missing.
    if (baseAlone || base.type !== "any") candidatesOf(base, named, out);
    return out;
  }
  if (schema.type === "alternatives") {
    for (const match of schema.matches ?? [])
      for (const branch of branchesOf(match).schemas) candidatesOf(branch, named, out);
    return out;
  }
  out.push({ schema, named });
  return out;
}

/** A problem in joi's shape, at `path`. */
function problem(path: (string | number)[], type: string, message: string, limit: number): Joi.ValidationErrorItem {
  const label = pathLabel(path);
  return { message: `"${label}" ${message}`, path, type, context: { limit, label } };
}

/** `["a", 0, "b"]` → `a[0].b`, as joi labels a nested field. */
function pathLabel(path: (string | number)[]): string {
  if (path.length === 0) return "value";
  return path.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`)).join("");
}

/** The largest length of an array any candidate takes (none if one takes any), and what its items may be. */
function arrayBound(candidates: Candidate[]): { limit: number | undefined; items: Candidate[] } {
  const arrays = candidates.filter((c) => c.schema.type === "array" || c.schema.type === "any");
  const limits = arrays.map((c) => (c.schema.type === "array" ? maxOf(c.schema) : undefined));
  const limit = limits.length > 0 && limits.every((l) => typeof l === "number") ? Math.max(...limits) : undefined;
  const items = arrays.flatMap((c) =>
    c.schema.type === "array" && c.schema.items?.length
      ? c.schema.items.flatMap((item) => candidatesOf(item, c.named))
      : [{ schema: ANY, named: c.named }],
  );
  return { limit, items };
}

/** A value the walk reaches; its path is made from the parents only when a problem names it. */
type Visit = { schemas: Candidate[]; value: unknown; parent: Visit | undefined; step: string | number };

/** Where a visited value sits in the body. */
function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let v: Visit | undefined = visit; v?.parent; v = v.parent) path.push(v.step);
  return path.reverse();
}

/**
 * The problem with an object's key count, if any: over the global bound, over every candidate's
 * `max`, or far over the keys declared where every candidate refuses unknown keys (only an
 * explicit `unknown(false)` does, as requests are validated with `stripUnknown`).
 */
function objectBound(candidates: Candidate[], keys: number, at: Visit) {
  const objects = candidates.filter((c) => c.schema.type === "object" || c.schema.type === "any");
  if (objects.length > 0) {
    const refused = schemaBound(objects, keys, at);
    if (refused) return refused;
  }
  if (keys > MAX_OBJECT_KEYS)
    return problem(
      pathOf(at),
      "object.max",
      `must have less than or equal to ${MAX_OBJECT_KEYS} keys`,
      MAX_OBJECT_KEYS,
    );
  return undefined;
}

/** The object's schema bounds, which say more than the global one: its `max`, and the keys it declares when it refuses the rest. */
function schemaBound(objects: Candidate[], keys: number, at: Visit) {
  const maxes = objects.map((c) => (c.schema.type === "object" ? maxOf(c.schema) : undefined));
  if (maxes.every((m) => typeof m === "number")) {
    const limit = Math.max(...maxes);
    if (keys > limit) return problem(pathOf(at), "object.max", `must have less than or equal to ${limit} keys`, limit);
  }
  const closed = objects.map(({ schema: s }) =>
    s.type === "object" && s.keys && !s.patterns && s.flags?.unknown === false ? Object.keys(s.keys).length : undefined,
  );
  if (closed.every((n) => typeof n === "number")) {
    const declared = Math.max(...closed);
    if (keys > declared + UNKNOWN_KEY_SLACK)
      return problem(
        pathOf(at),
        "object.unknown",
        `has ${keys} keys, far more than the ${declared} it takes`,
        declared,
      );
  }
  return undefined;
}

/** What a key of an object may be validated by: each candidate's rule for it, or no bound where one lacks it. */
function keyCandidates(objects: Candidate[], key: string): Candidate[] {
  return objects.map((c) => {
    const child = c.schema.keys && Object.hasOwn(c.schema.keys, key) ? c.schema.keys[key] : undefined;
    const checked = c.schema.patterns !== undefined || c.schema.flags?.unknown === false;
    return { schema: child ?? (checked ? CHECKED : ANY), named: c.named };
  });
}

/** What the walk found: the values too large, and how many values a schema describes (joi validates each). */
export interface ValueBounds {
  problems: Joi.ValidationErrorItem[];
  described: number;
}

/**
 * Arrays and objects larger than any schema they may be validated by lets them be, found by
 * walking the value along the schema (links, alternatives and `when` branches followed) before
 * joi validates it: joi checks an array's length and an object's key count only after it has
 * validated every item and key (32,000 handoffs took 41 s; 600,000 metadata keys 8.2 s) and
 * collects one problem per unknown key (150,000 overflowed its stack: a 500). Every object also
 * stays under MAX_OBJECT_KEYS, described or not. Linear, and iterative, so no value is too deep.
 */
export function oversizedValues(schema: Description, value: unknown): ValueBounds {
  const problems: Joi.ValidationErrorItem[] = [];
  let described = 0;
  const stack: Visit[] = [];
  // Children go on the stack last first, so problems come in the order of the body.
  const push = (schemas: Candidate[], child: unknown, parent: Visit, step: string | number) => {
    if (schemas.some((c) => c.schema !== ANY)) described++;
    if (child !== null && typeof child === "object") stack.push({ schemas, value: child, parent, step });
  };
  if (value !== null && typeof value === "object")
    stack.push({ schemas: candidatesOf(schema, new Map()), value, parent: undefined, step: "" });
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const current = visit;
    if (Array.isArray(current.value)) {
      const { limit, items } = arrayBound(current.schemas);
      if (limit !== undefined && current.value.length > limit) {
        problems.push(
          problem(pathOf(current), "array.max", `must contain less than or equal to ${limit} items`, limit),
        );
        continue;
      }
      for (let i = current.value.length - 1; i >= 0; i--) push(items, current.value[i], current, i);
      continue;
    }
    const record = current.value as Record<string, unknown>;
    const keys = Object.keys(record);
    const refused = objectBound(current.schemas, keys.length, current);
    if (refused) {
      problems.push(refused);
      continue;
    }
    const objects = current.schemas.filter((c) => c.schema.type === "object" || c.schema.type === "any");
    for (let i = keys.length - 1; i >= 0; i--) {
      const schemas = keyCandidates(objects, keys[i]).flatMap((c) => candidatesOf(c.schema, c.named));
      push(schemas, record[keys[i]], current, keys[i]);
    }
  }
  return { problems, described };
}
