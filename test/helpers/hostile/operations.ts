import { randomUUID } from "node:crypto";
import { DocumentSchemas, type Doc } from "../openapi";
import { SchemaWalker, type JsonSchema } from "./schema-walk";

type AppName = "api" | "platform";

/** One way to present a credential, from the document's security schemes. */
export type CredentialSlot = { in: "header"; name: string } | { in: "bearer" };

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: JsonSchema;
}

/** One operation of a served OpenAPI document, with what the probes need to know about it. */
export interface DocumentedOperation {
  app: AppName;
  baseUrl: string;
  doc: Doc;
  schemas: DocumentSchemas;
  walker: SchemaWalker;
  method: string;
  template: string;
  /** `POST /v1/agent/completions`. */
  label: string;
  op: Record<string, any>;
  parameters: Parameter[];
  /** Ways to authenticate (the first is used for valid requests); empty when the operation is public. */
  credentials: CredentialSlot[];
  /** Whether a call without credentials is refused. */
  authRequired: boolean;
  /** The documented request body; `itemsSeparately`: an array whose invalid items are answered in their own slots. */
  body?: { mediaType: string; schema: JsonSchema; example?: unknown; itemsSeparately: boolean };
  /** HTML pages answer errors with an HTML page; everything else with the app's JSON error body. */
  answersHtml: boolean;
}

export interface ServedDocument {
  app: AppName;
  baseUrl: string;
  doc: Doc;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of the served documents. */
export function documentedOperations(documents: ServedDocument[]): DocumentedOperation[] {
  return documents.flatMap(({ app, baseUrl, doc }) => {
    const schemas = new DocumentSchemas(doc, `hostile-${app}`);
    const walker = new SchemaWalker(doc);
    return Object.entries(doc.paths).flatMap(([template, item]) =>
      Object.entries<Record<string, any>>(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) =>
          describe({ app, baseUrl, doc }, schemas, walker, template, method, op, item.parameters ?? []),
        ),
    );
  });
}

function describe(
  served: ServedDocument,
  schemas: DocumentSchemas,
  walker: SchemaWalker,
  template: string,
  method: string,
  op: Record<string, any>,
  shared: any[],
): DocumentedOperation {
  const { doc } = served;
  const parameters: Parameter[] = [...shared, ...(op.parameters ?? [])].map((p) => {
    const resolved = typeof p.$ref === "string" ? doc.components?.parameters?.[p.$ref.split("/").pop()!] : p;
    return {
      name: resolved.name,
      in: resolved.in,
      required: Boolean(resolved.required),
      schema: resolved.schema ?? {},
    };
  });
  const requirements: Record<string, string[]>[] = op.security ?? doc.security ?? [];
  const credentials = requirements.flatMap((req) =>
    Object.keys(req).map((name): CredentialSlot => {
      const scheme = doc.components?.securitySchemes?.[name] ?? {};
      return scheme.type === "apiKey" && scheme.in === "header"
        ? { in: "header", name: String(scheme.name).toLowerCase() }
        : { in: "bearer" };
    }),
  );
  const [mediaType, media] = Object.entries<any>(op.requestBody?.content ?? {})[0] ?? [];
  // An example with placeholders (`x-placeholder`: a wallet's secret key to fill in) cannot be sent as it is.
  const sendable = Object.values<any>(media?.examples ?? {}).filter((e) => !e["x-placeholder"]);
  const example = media ? (media.example ?? sendable[0]?.value) : undefined;
  const contentTypes = Object.values<any>(op.responses ?? {}).flatMap((r) => Object.keys(r.content ?? {}));
  return {
    ...served,
    schemas,
    walker,
    method: method.toUpperCase(),
    template,
    label: `${method.toUpperCase()} ${template}`,
    op,
    parameters,
    credentials,
    authRequired: requirements.length > 0 && !requirements.some((req) => Object.keys(req).length === 0),
    ...(mediaType
      ? {
          body: {
            mediaType,
            schema: media.schema ?? {},
            example,
            itemsSeparately: op.requestBody["x-items-validated-one-by-one"] === true,
          },
        }
      : {}),
    answersHtml: contentTypes.includes("text/html") && !contentTypes.includes("application/json"),
  };
}

/** A value for a path parameter that names nothing: the first allowed value, else a fresh UUID. */
function plainPathValue(parameter: Parameter): string {
  const values = parameter.schema.enum;
  return Array.isArray(values) && values.length ? String(values[0]) : randomUUID();
}

/** The operation's path with its parameters filled in; `override` replaces one parameter's text (already encoded). */
export function concretePath(target: DocumentedOperation, override?: { name: string; raw: string }): string {
  return target.template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (override?.name === name) return override.raw;
    const parameter = target.parameters.find((p) => p.in === "path" && p.name === name);
    return encodeURIComponent(parameter ? plainPathValue(parameter) : randomUUID());
  });
}

/** Headers that present `key` the first way the operation documents (none for public operations). */
export function credentialHeaders(target: DocumentedOperation, key: string): Record<string, string> {
  const slot = target.credentials[0];
  if (!slot) return {};
  return slot.in === "header" ? { [slot.name]: key } : { authorization: `Bearer ${key}` };
}
