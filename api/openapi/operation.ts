import type Router from "@koa/router";
import type Joi from "joi";
import type { JsonSchema } from "./joi-json-schema";

/**
 * An OpenAPI object other than a schema (a parameter, header, response or security scheme): written
 * here as literals and only serialised, so its fields stay open.
 */
export type OpenApiObject = Record<string, unknown>;

type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/**
 * Who may call an operation:
 * - `apiKey`: the execution API's key, in `x-api-key` or `Authorization: Bearer`;
 * - `platform`: the platform's `Authorization: Bearer` with an API key or a session token;
 * - `platformOptional`: the same, but anonymous calls are answered too;
 * - `public`: no credentials.
 */
export type Access = "apiKey" | "platform" | "platformOptional" | "public";

/** Request headers described once in the document (`components.parameters`). */
export type SharedHeader = "Prefer" | "Idempotency-Key" | "X-Stainless-Retry-Count" | "X-Stainless-Timeout";

interface Example {
  summary?: string;
  description?: string;
  value: unknown;
  /**
   * The value holds placeholders to fill in (a wallet's secret key, ids of the caller's own listings)
   * and cannot be sent as it is;
   * rendered as the specification extension `x-placeholder`, so generated requests skip it.
   */
  "x-placeholder"?: true;
}

/** A response body in a media type other than JSON (a stream, a page, a file). */
export interface OtherContent {
  schema?: JsonSchema;
  description?: string;
  example?: unknown;
}

export interface ResponseSpec {
  description: string;
  /** The JSON body, as a joi schema (named when it carries a joi `.id()`). */
  body?: Joi.Schema;
  examples?: Record<string, Example>;
  /** Bodies in other media types, by media type (e.g. `text/event-stream`). */
  content?: Record<string, OtherContent>;
  /** Response headers the route sets, with what they mean. */
  headers?: Record<string, { description: string; schema?: JsonSchema }>;
}

export interface RequestSpec {
  /** The very joi schema the route validates the body with, so the two cannot differ. */
  body: Joi.Schema;
  description?: string;
  /** Sent as-is to the live API by the tests: each must succeed. */
  examples?: Record<string, Example>;
  /**
   * The route checks only that the body is an array and its service validates each item against
   * `body`'s items, so one bad item fills its own slot instead of failing the request.
   */
  itemsValidatedOneByOne?: boolean;
  /**
   * The route also takes `multipart/form-data` with the same fields (as text) and these file
   * fields, by name, with what they take and the media types a file may have.
   */
  multipart?: { files: Record<string, { description: string; contentTypes: string[] }> };
}

/** One documented route: what a client needs to call it and what it answers. */
export interface Operation {
  method: HttpMethod;
  /** The OpenAPI path template (`/v1/jobs/{job_id}`), the router's path with `:name` as `{name}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  /** Path parameters: the keys of a joi object. */
  pathParams?: Joi.ObjectSchema;
  /** Query parameters: the keys of a joi object (the one the route validates the query with). */
  query?: Joi.ObjectSchema;
  headers?: SharedHeader[];
  /** The error bodies the route answers with: the `/v1` ones (default) or OpenAI's (`{error: {...}}`). */
  errorBodies?: "openai";
  request?: RequestSpec;
  /**
   * Responses by status. The document adds the ones every route of its kind shares (401 and 429
   * for API-key routes, 422 for JSON bodies, …) unless the operation gives its own.
   */
  responses: Record<number, ResponseSpec>;
}

const operations = new WeakMap<Router, Operation[]>();

/**
 * Attaches the description of a router's routes to the router, where the OpenAPI document reads
 * it; returns the router. The document of each app is built from the same routers it mounts, and a
 * test fails for any route without a description (or a description without a route).
 */
export function documentRoutes(router: Router, ...described: Operation[]): Router {
  operations.set(router, [...(operations.get(router) ?? []), ...described]);
  return router;
}

/** The operations attached to a router (none when it was never described). */
export function operationsOf(router: Router): Operation[] {
  return operations.get(router) ?? [];
}

/** `/v1/jobs/:job_id` → `/v1/jobs/{job_id}`. */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}
