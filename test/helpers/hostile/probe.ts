import type { RefusedCredentials } from "./bad-credentials";
import { encodeBody } from "./body-encoding";
import { jsonText, RawMembers, valueAt, withValueAt, type JsonPath } from "./json-text";
import { concretePath, type DocumentedOperation } from "./operations";
import type { Field } from "./schema-walk";

export type MutationClass =
  | "control"
  | "wrong-type"
  | "missing-required"
  | "extra-fields"
  | "huge-string"
  | "body-limit"
  | "huge-array"
  | "deep-nesting"
  | "bad-unicode"
  | "number-range"
  | "prototype-keys"
  | "content-type"
  | "malformed-json"
  | "content-encoding"
  | "bad-auth"
  | "path-param"
  | "query-param"
  | "header-param"
  | "wrong-method"
  | "cookie"
  | "unknown-path";

/**
 * What a probe must get: refused (4xx, from `statuses` when given) — a request the document says
 * is invalid, or one the API refuses by rule (too deep, too large, not JSON, no credentials);
 * `accepted` (a control request, 2xx/3xx); or `tolerated`: valid as far as the document can tell,
 * so either answer will do as long as it is not a 5xx.
 */
export type Expectation = { kind: "refused"; statuses?: number[] } | { kind: "accepted" } | { kind: "tolerated" };

export interface Probe {
  target: DocumentedOperation;
  cls: MutationClass;
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Whether the operation's valid credentials are added when sending. */
  withCredentials: boolean;
  expect: Expectation;
  /** The path no longer falls under the operation's template (`../..` in a parameter): the app answers, not the operation. */
  outsideOperation?: boolean;
}

export interface ProbeSettings {
  refused: RefusedCredentials;
  /** The JSON body limit of the API, in bytes: one byte more must be 413. */
  bodyLimitBytes: number;
  sessionCookie: string;
}

export const refused = (...statuses: number[]): Expectation => ({
  kind: "refused",
  ...(statuses.length ? { statuses } : {}),
});
export const tolerated: Expectation = { kind: "tolerated" };

/**
 * What the builders of one operation's probes share: the base body (the documented example, else
 * a value made from the schema), how a variant of it is encoded and judged, and where its fields
 * and objects are.
 */
export abstract class OperationProbes {
  protected readonly probes: Probe[] = [];
  protected readonly base: unknown;
  protected readonly json: boolean;

  constructor(
    protected readonly target: DocumentedOperation,
    protected readonly settings: ProbeSettings,
  ) {
    const body = target.body;
    const example = body?.itemsSeparately && Array.isArray(body.example) ? body.example.slice(0, 1) : body?.example;
    // A batch whose items are checked one by one: its other items would run whatever the probe does to the first.
    this.base = body ? (example ?? target.walker.sample(body.schema)) : undefined;
    this.json = body ? /^application\/(.+\+)?json$/.test(body.mediaType) : false;
  }

  abstract build(): Probe[];

  protected add(
    cls: MutationClass,
    name: string,
    expect: Expectation,
    parts: {
      body?: Buffer;
      contentType?: string;
      headers?: Record<string, string>;
      path?: string;
      withCredentials?: boolean;
      outsideOperation?: boolean;
    } = {},
  ): void {
    const headers: Record<string, string> = {
      ...(parts.contentType !== undefined ? { "content-type": parts.contentType } : {}),
      ...(parts.headers ?? {}),
    };
    this.probes.push({
      target: this.target,
      cls,
      name,
      method: this.target.method,
      path: parts.path ?? concretePath(this.target),
      headers,
      ...(parts.body ? { body: parts.body } : {}),
      withCredentials: parts.withCredentials ?? true,
      expect,
      ...(parts.outsideOperation ? { outsideOperation: true } : {}),
    });
  }

  /** The documented body's media type around a value; refused or tolerated as the request schema judges the value. */
  protected addBody(
    cls: MutationClass,
    name: string,
    value: unknown,
    expect?: Expectation,
    extra: { headers?: Record<string, string> } = {},
  ): void {
    const { body, contentType } = encodeBody(this.target.body!.mediaType, value);
    this.add(cls, name, expect ?? this.judge(value, cls, this.json ? body.toString() : undefined), {
      body,
      contentType,
      ...extra,
    });
  }

  /** The base body, encoded. */
  protected baseBody(): { body: Buffer; contentType: string } {
    return encodeBody(this.target.body!.mediaType, this.base);
  }

  /** Refused when the document's request schema rejects the value (as the server will parse it from `text`); tolerated otherwise. */
  protected judge(value: unknown, cls: MutationClass, text = jsonText(value)): Expectation {
    if (!this.json) return cls === "missing-required" ? refused() : tolerated;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return refused(400);
    }
    const { schema, itemsSeparately } = this.target.body!;
    // An invalid item of such a batch is answered in its own slot: only the envelope decides a refusal.
    const judged = itemsSeparately ? { ...this.target.walker.resolve(schema), items: {} } : schema;
    // Unknown fields are dropped rather than refused (the API's rule, as the hosted API does), so an
    // object the document closes does not make an extra field a refusal.
    const problems = this.target.schemas.errors(judged, parsed).filter((e) => !e.includes('{"additionalProperty":'));
    return problems.length > 0 ? refused() : tolerated;
  }

  protected fields(): Field[] {
    return this.target.walker.fields(this.target.body!.schema, this.base);
  }

  protected fieldsOfType(type: "string" | "number" | "array"): Field[] {
    return this.fields().filter((f) => {
      const types = this.target.walker.types(f.schema);
      return types.size < 7 && (type === "number" ? types.has("number") || types.has("integer") : types.has(type));
    });
  }

  /** Where objects sit in the base body: the root (or the first item of a root array) and each object field. */
  protected objectSites(): JsonPath[] {
    const sites: JsonPath[] = [];
    const isObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
    if (isObject(this.base)) sites.push([]);
    else if (Array.isArray(this.base) && isObject(this.base[0])) sites.push([0]);
    for (const f of this.fields())
      if (
        isObject(valueAt(this.base, f.path)) ||
        (this.target.walker.isFreeForm(f.schema) && this.target.walker.objectShape(f.schema))
      )
        sites.push(f.path);
    const seen = new Set<string>();
    return sites.filter((site) => !seen.has(JSON.stringify(site)) && Boolean(seen.add(JSON.stringify(site))));
  }

  protected withMembersAt(path: JsonPath, members: string): unknown {
    const here = valueAt(this.base, path);
    return withValueAt(
      this.base,
      path,
      new RawMembers(
        here && typeof here === "object" && !Array.isArray(here) ? (here as Record<string, unknown>) : {},
        members,
      ),
    );
  }

  // ----- body classes -----

  protected withBase(): { body?: Buffer; contentType?: string } {
    return this.target.body ? this.baseBody() : {};
  }
}
