import type Router from "@koa/router";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { openApiPath } from "../../api/openapi/operation";

export type Doc = Record<string, any> & { paths: Record<string, Record<string, any>> };

/** `METHOD /path` of every route a list of Koa routers registers (HEAD, which the router adds to GETs, left out). */
export function registeredRoutes(routers: Router[]): string[] {
  return routers.flatMap((router) =>
    router.stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== "HEAD").map((m) => `${m} ${openApiPath(String(layer.path))}`),
    ),
  );
}

/** `METHOD /path` of every operation of a document. */
export function documentedRoutes(doc: Doc): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** The document's path template a concrete path falls under (`/v1/jobs/abc` → `/v1/jobs/{job_id}`). */
function templateOf(doc: Doc, path: string): string | undefined {
  return Object.keys(doc.paths).find((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
  );
}

/**
 * Validates values against the schemas of one document with a JSON Schema 2020-12 validator
 * (strict, so a keyword it does not know fails instead of being ignored). Component references
 * (`#/components/schemas/X`) resolve through one schema holding them all.
 */
export class DocumentSchemas {
  // strictRequired off: a conditional `then: {required: [key]}` names a key defined beside the `if`, as JSON Schema allows.
  private readonly ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly base: string;

  constructor(
    readonly doc: Doc,
    name: string,
  ) {
    addFormats(this.ajv);
    this.base = `https://apiary.test/${name}`;
    this.ajv.addSchema({ $id: this.base, $defs: this.rebase(doc.components?.schemas ?? {}) });
  }

  private rebase(schema: unknown): any {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${this.base}#/$defs/`));
  }

  /** Validation errors of `value` against `schema` (a schema of this document), as readable lines; empty when valid. */
  errors(schema: unknown, value: unknown): string[] {
    const validate = this.validator(schema);
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
  }

  private validator(schema: unknown): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(this.rebase(schema));
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** Every schema of the document compiles (component schemas, parameters, bodies). */
  compileAll(): void {
    for (const name of Object.keys(this.doc.components?.schemas ?? {}))
      this.validator({ $ref: `#/components/schemas/${name}` });
    for (const item of Object.values(this.doc.paths)) {
      for (const op of Object.values(item)) {
        for (const p of op.parameters ?? []) if (p.schema) this.validator(p.schema);
        for (const media of Object.values<any>(op.requestBody?.content ?? {}))
          if (media.schema) this.validator(media.schema);
        for (const response of Object.values<any>(op.responses)) {
          for (const media of Object.values<any>(response.content ?? {}))
            if (media.schema) this.validator(media.schema);
        }
      }
    }
  }

  /**
   * Problems of a live answer against the document: an undocumented status or media type, or a
   * JSON body that does not match the documented schema. Empty when the answer is as documented.
   */
  responseProblems(method: string, path: string, res: { status: number; headers: Headers; body: unknown }): string[] {
    const template = templateOf(this.doc, path.split("?")[0]);
    const op = template ? this.doc.paths[template][method.toLowerCase()] : undefined;
    if (!op) return [`${method} ${path} is not documented`];
    const response = op.responses[String(res.status)];
    if (!response)
      return [`${method} ${template} does not document status ${res.status} (body ${JSON.stringify(res.body)})`];
    const mediaType = (res.headers.get("content-type") ?? "").split(";")[0].trim();
    const media = response.content?.[mediaType];
    if (!media) return [`${method} ${template} ${res.status} does not document ${mediaType || "an empty body"}`];
    if (mediaType !== "application/json") return [];
    return this.errors(media.schema, res.body).map((e) => `${method} ${template} ${res.status}: ${e}`);
  }
}
