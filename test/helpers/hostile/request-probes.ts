import { randomUUID } from "node:crypto";
import { badCredentialHeaders, utf8Bytes } from "./bad-credentials";
import { pathLabel, withoutValueAt } from "./json-text";
import { concretePath, type DocumentedOperation, type Parameter } from "./operations";
import { OperationProbes, refused, tolerated, type Expectation, type Probe } from "./probe";

/** Probes of everything around the body: credentials, path, query and header parameters, cookies. */
export class RequestProbes extends OperationProbes {
  build(): Probe[] {
    this.credentials();
    this.pathParams();
    this.queryParams();
    this.headerParams();
    this.cookies();
    return this.probes;
  }

  private credentials(): void {
    const slots = this.target.credentials.length ? this.target.credentials : [{ in: "bearer" as const }];
    const expect = this.target.authRequired ? refused(401) : tolerated;
    for (const { name, headers } of badCredentialHeaders(slots, this.settings.refused)) {
      this.add("bad-auth", name, expect, { ...this.withBase(), headers, withCredentials: false });
    }
  }

  private pathParams(): void {
    const garbage: [string, string][] = [
      ["../.. (encoded)", "..%2F..%2F..%2Fetc%2Fpasswd"],
      ["../.. (raw)", "../../etc/passwd"],
      ["%2e%2e", "%2e%2e"],
      ["an encoded NUL", "hostile%00"],
      ["a lone %", "%"],
      ["%ff", "%ff"],
      ["an overlong UTF-8 dot", "%C0%AE%C0%AE"],
      ["a bidi override", "%E2%80%AEhostile"],
      ["a 10 KB id", "a".repeat(10_000)],
      ["not a UUID", "not-a-uuid"],
      ["SQL", encodeURIComponent("'; DROP TABLE users; --")],
      ["a UUID with a suffix", `${randomUUID()}%20OR%201=1`],
    ];
    for (const parameter of this.target.parameters.filter((p) => p.in === "path")) {
      for (const [label, raw] of garbage) {
        const path = concretePath(this.target, { name: parameter.name, raw });
        this.add("path-param", `{${parameter.name}} is ${label}`, refused(), {
          ...this.withBase(),
          path,
          outsideOperation: raw.includes("/"),
        });
      }
    }
  }

  private queryParams(): void {
    const path = concretePath(this.target);
    const query = this.target.parameters.filter((p) => p.in === "query");
    const values: [string, string][] = [
      ["a word", "hostile"],
      ["-1", "-1"],
      ["1e309", "1e309"],
      ["a 20-digit number", "99999999999999999999"],
      ["a fraction", "0.5"],
      ["empty", ""],
      ["an encoded NUL", "%00"],
      ["a lone %", "%"],
      ["%ff", "%ff"],
      ["10 KB", "9".repeat(10_000)],
    ];
    for (const parameter of query) {
      for (const [label, raw] of values) {
        this.add("query-param", `?${parameter.name}= ${label}`, this.judgeParameter(parameter, raw), {
          ...this.withBase(),
          path: `${path}?${parameter.name}=${raw}`,
        });
      }
      this.add("query-param", `?${parameter.name} given twice`, tolerated, {
        ...this.withBase(),
        path: `${path}?${parameter.name}=1&${parameter.name}=2`,
      });
      this.add("query-param", `?${parameter.name}[] as an array`, tolerated, {
        ...this.withBase(),
        path: `${path}?${parameter.name}[]=1&${parameter.name}[a]=2`,
      });
    }
    if (query.length || this.target.method === "GET") {
      this.add("query-param", "an unknown parameter", tolerated, {
        ...this.withBase(),
        path: `${path}?hostile_param=1&__proto__[polluted]=yes`,
      });
      this.add("query-param", "a malformed query string", tolerated, {
        ...this.withBase(),
        path: `${path}?%&&=&==%zz&a=%00`,
      });
    }
  }

  /** A query value as the server reads it (percent-decoded, then a number where the schema wants one), judged by the parameter's schema. */
  private judgeParameter(parameter: Parameter, raw: string): Expectation {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return tolerated;
    }
    const types = this.target.walker.types(parameter.schema);
    const numeric = (types.has("integer") || types.has("number")) && !types.has("string");
    const value = numeric ? (decoded.trim() === "" ? Number.NaN : Number(decoded)) : decoded;
    if (numeric && !Number.isFinite(value as number)) return refused();
    return this.target.schemas.errors(parameter.schema, value).length > 0 ? refused() : tolerated;
  }

  private headerParams(): void {
    const values: [string, string][] = [
      ["empty", ""],
      ["300 characters", "h".repeat(300)],
      ["8 KB", "h".repeat(8_000)],
      ["non-ASCII bytes", utf8Bytes("ключ-🔑")],
      ["separators and junk", 'hostile ;;; == ,, "unterminated'],
      ["respond-async, wait=-1", "respond-async, wait=-1"],
      ["wait=1e309", "wait=1e309"],
      ["wait=99999999999999999999", "wait=99999999999999999999"],
    ];
    for (const parameter of this.target.parameters.filter((p) => p.in === "header")) {
      for (const [label, value] of values) {
        // Header bytes arrive as latin1 text; the schema judges that text.
        const expect = this.target.schemas.errors(parameter.schema, value).length > 0 ? refused() : tolerated;
        this.add("header-param", `${parameter.name}: ${label}`, expect, {
          ...this.withBase(),
          headers: { [parameter.name]: value },
        });
      }
      // A valid header with a body the schema refuses: nothing of the header's work may stay behind.
      const required = this.fields().find((f) => f.required && f.path.length === (Array.isArray(this.base) ? 2 : 1));
      if (!this.target.body || !required) continue;
      const header = `hostile-${randomUUID()}`;
      if (this.target.schemas.errors(parameter.schema, header).length > 0) continue;
      const invalid = withoutValueAt(this.base, required.path);
      this.addBody(
        "header-param",
        `a valid ${parameter.name} with ${pathLabel(required.path)} missing`,
        invalid,
        undefined,
        { headers: { [parameter.name]: header } },
      );
    }
  }

  private cookies(): void {
    if (this.target.method !== "GET" && this.target.credentials.length > 0) return;
    const name = this.settings.sessionCookie;
    const cookies: [string, string][] = [
      ["a garbage session cookie", `${name}=hostile`],
      ["a session cookie with alg none", `${name}=${this.settings.refused.unsignedJwt}`],
      ["an expired session cookie", `${name}=${this.settings.refused.expiredJwt}`],
      ["a malformed cookie header", ";;;===;; =;"],
      ["a 4 KB cookie", `${name}=${"c".repeat(4_000)}`],
      ["a cookie with bytes that are not ASCII", utf8Bytes(`${name}=значение; имя=1`)],
      ["a session cookie with a bad escape", `${name}=%`],
    ];
    for (const [label, cookie] of cookies)
      this.add("cookie", label, tolerated, { ...this.withBase(), headers: { cookie } });
  }
}

/** Probes for methods a path does not document: each must be 405 with `Allow`. */
export function wrongMethodProbes(operations: DocumentedOperation[]): Probe[] {
  const byPath = new Map<string, DocumentedOperation[]>();
  for (const op of operations)
    byPath.set(`${op.app} ${op.template}`, [...(byPath.get(`${op.app} ${op.template}`) ?? []), op]);
  return [...byPath.values()].flatMap((ops) => {
    const documented = new Set(ops.map((o) => o.method));
    const target = ops[0];
    const path = concretePath(target);
    return ["GET", "POST", "PUT", "PATCH", "DELETE"]
      .filter((m) => !documented.has(m) && !(m === "GET" && documented.has("HEAD")))
      .map((method): Probe => ({
        target,
        cls: "wrong-method",
        name: `${method} ${target.template} (documented: ${[...documented].join(", ")})`,
        method,
        path,
        headers: method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" },
        ...(method === "GET" || method === "DELETE" ? {} : { body: Buffer.from("{}") }),
        withCredentials: true,
        expect: refused(405),
      }));
  });
}

/** Probes for paths no operation has, on each app: the app's own 404 (or 400) body. */
export function unknownPathProbes(operations: DocumentedOperation[]): Probe[] {
  const byApp = new Map<string, DocumentedOperation>();
  for (const op of operations) if (!op.answersHtml && !byApp.has(op.app)) byApp.set(op.app, op);
  return [...byApp.values()].flatMap((any) => {
    const target: DocumentedOperation = { ...any, op: { responses: {} }, label: `${any.app} app (no operation)` };
    const paths = [
      `/hostile-${randomUUID()}`,
      `${concretePath(any)}/hostile-extra`,
      "/%",
      "/%00",
      "//",
      `/${"p".repeat(10_000)}`,
      "/..%2F..%2Fetc%2Fpasswd",
    ];
    return paths.map((path): Probe => ({
      target,
      cls: "unknown-path",
      name: path.slice(0, 80),
      method: "GET",
      path,
      headers: {},
      withCredentials: false,
      expect: refused(400, 404),
    }));
  });
}
