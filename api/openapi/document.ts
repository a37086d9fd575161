import type Router from "@koa/router";
import type Joi from "joi";
import { joiToJsonSchema, type JsonSchema } from "./joi-json-schema";
import { operationsOf, type OpenApiObject, type Operation, type RequestSpec, type ResponseSpec } from "./operation";
import {
  RATE_LIMIT_HEADERS,
  SECURITY_BY_ACCESS,
  SECURITY_SCHEMES,
  SHARED_HEADERS,
  sharedResponses,
} from "./shared-parts";

/** What a document says about its app besides the routes. */
export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  servers: { url: string; description?: string }[];
  /** Tags in display order, with what their operations have in common. */
  tags: { name: string; description: string }[];
}

/** One operation of the document, with the fields read back (the docs page's index, the used security schemes). */
interface OpenApiOperation extends OpenApiObject {
  summary?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, OpenApiObject>;
}

/** Operations by path, then by method. */
type OpenApiPaths = Record<string, Record<string, OpenApiOperation>>;

export interface OpenApiDocument {
  openapi: string;
  jsonSchemaDialect: string;
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: DocumentInfo["servers"];
  tags: { name: string; description?: string }[];
  paths: OpenApiPaths;
  components: Record<string, Record<string, OpenApiObject>>;
}

/** A joi object's keys as OpenAPI parameters of one location. */
function parameters(
  schema: Joi.ObjectSchema | undefined,
  location: "path" | "query",
  components: Record<string, JsonSchema>,
): OpenApiObject[] {
  if (!schema) return [];
  const keys = Object.keys(schema.describe().keys ?? {});
  return keys.map((name) => {
    const field = schema.extract(name);
    const converted = joiToJsonSchema(field, components);
    const { description, ...rest } = converted;
    return {
      name,
      in: location,
      required:
        location === "path" || (field.describe().flags as { presence?: string } | undefined)?.presence === "required",
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** `post /v1/agent/completions` → `postV1AgentCompletions`. */
function operationId(op: Operation): string {
  const words = op.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return op.method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

/** The operation's own responses over the shared ones; where both describe one status with one body, both descriptions stay. */
function responsesOf(op: Operation): Record<number, ResponseSpec> {
  const merged: Record<number, ResponseSpec> = { ...sharedResponses(op) };
  for (const [status, own] of Object.entries(op.responses)) {
    const shared = merged[Number(status)];
    merged[Number(status)] =
      shared && shared.body === own.body
        ? { ...shared, ...own, description: `${own.description}. Also: ${shared.description}` }
        : own;
  }
  return merged;
}

function renderResponse(
  op: Operation,
  status: number,
  spec: ResponseSpec,
  components: Record<string, JsonSchema>,
): OpenApiObject {
  const content: Record<string, OpenApiObject> = {};
  if (spec.body)
    content["application/json"] = {
      schema: joiToJsonSchema(spec.body, components),
      ...(spec.examples ? { examples: spec.examples } : {}),
    };
  for (const [mediaType, other] of Object.entries(spec.content ?? {})) {
    content[mediaType] = {
      ...(other.schema ? { schema: other.schema } : {}),
      ...(other.example !== undefined ? { example: other.example } : {}),
    };
  }
  const headers: Record<string, OpenApiObject> = { ...(spec.headers ?? {}) };
  // Every /v1 answer past authentication carries the key's rate-limit counters.
  if (op.access === "apiKey" && ((status >= 200 && status < 300) || status === 429)) {
    for (const name of Object.keys(RATE_LIMIT_HEADERS)) headers[name] = { $ref: `#/components/headers/${name}` };
  }
  const mediaNotes = Object.entries(spec.content ?? {})
    .filter(([, other]) => other.description)
    .map(([mediaType, other]) => `\n\n**${mediaType}**: ${other.description}`)
    .join("");
  return {
    description: spec.description + mediaNotes,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

/**
 * A request body's media types: JSON, and for routes that also take a form, `multipart/form-data`
 * with the same fields plus the file fields (which also take the JSON field's text forms).
 */
function requestContent(request: RequestSpec, components: Record<string, JsonSchema>): Record<string, OpenApiObject> {
  const json = joiToJsonSchema(request.body, components);
  const content: Record<string, OpenApiObject> = {
    "application/json": { schema: json, ...(request.examples ? { examples: request.examples } : {}) },
  };
  if (request.multipart) {
    const files = Object.entries(request.multipart.files);
    const fileProperties = Object.fromEntries(
      files.map(([name, file]) => [name, { type: "string", description: file.description }]),
    );
    const schema =
      json.type === "object"
        ? { ...json, properties: { ...json.properties, ...fileProperties } }
        : { allOf: [json, { properties: fileProperties }] };
    const encoding = Object.fromEntries(
      files.map(([name, file]) => [name, { contentType: file.contentTypes.join(", ") }]),
    );
    content["multipart/form-data"] = { schema, encoding };
  }
  return content;
}

function renderOperation(op: Operation, components: Record<string, JsonSchema>): OpenApiOperation {
  const responses: Record<string, OpenApiObject> = {};
  const byStatus = responsesOf(op);
  for (const status of Object.keys(byStatus)
    .map(Number)
    .sort((a, b) => a - b)) {
    responses[String(status)] = renderResponse(op, status, byStatus[status], components);
  }
  const params = [
    ...parameters(op.pathParams, "path", components),
    ...parameters(op.query, "query", components),
    ...(op.headers ?? []).map((name) => ({ $ref: `#/components/parameters/${SHARED_HEADERS[name].component}` })),
  ];
  return {
    operationId: operationId(op),
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: op.tags,
    security: SECURITY_BY_ACCESS[op.access],
    ...(params.length ? { parameters: params } : {}),
    ...(op.request
      ? {
          requestBody: {
            required: true,
            ...(op.request.description ? { description: op.request.description } : {}),
            // Tells generated clients and tests that an invalid item is answered in its own slot, not with a 422.
            ...(op.request.itemsValidatedOneByOne ? { "x-items-validated-one-by-one": true } : {}),
            content: requestContent(op.request, components),
          },
        }
      : {}),
    responses,
  };
}

/** Only the shared parts some operation refers to, so each document stays self-contained and small. */
function usedComponents(
  paths: OpenApiPaths,
  schemas: Record<string, JsonSchema>,
): Record<string, Record<string, OpenApiObject>> {
  const text = JSON.stringify(paths);
  const pick = (all: Record<string, OpenApiObject>, prefix: string) =>
    Object.fromEntries(Object.entries(all).filter(([name]) => text.includes(`"#/components/${prefix}/${name}"`)));
  const securityNames = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((o) => (o.security ?? []).flatMap(Object.keys))),
  );
  const components = {
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    parameters: pick(
      Object.fromEntries(Object.values(SHARED_HEADERS).map((h) => [h.component, h.parameter])),
      "parameters",
    ),
    headers: pick(RATE_LIMIT_HEADERS, "headers"),
    securitySchemes: Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => securityNames.has(name))),
  };
  return Object.fromEntries(Object.entries(components).filter(([, entries]) => Object.keys(entries).length > 0));
}

/**
 * The OpenAPI 3.1 document of an app, from the operations attached to the routers it mounts
 * (`documentRoutes`); bodies and parameters are converted from the routes' own joi schemas.
 */
export function buildOpenApiDocument(info: DocumentInfo, routers: Router[]): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  const paths: OpenApiPaths = {};
  const tags = new Map(info.tags.map((t) => [t.name, t]));
  for (const op of routers.flatMap(operationsOf)) {
    if (paths[op.path]?.[op.method]) throw new Error(`${op.method.toUpperCase()} ${op.path} is described twice`);
    (paths[op.path] ??= {})[op.method] = renderOperation(op, schemas);
    for (const tag of op.tags) if (!tags.has(tag)) tags.set(tag, { name: tag, description: "" });
  }
  const used = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((o) => o.tags)));
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: {
      title: info.title,
      version: info.version,
      description: info.description,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: info.servers,
    tags: [...tags.values()].filter((t) => used.has(t.name)).map((t) => (t.description ? t : { name: t.name })),
    paths,
    components: usedComponents(paths, schemas),
  };
}
