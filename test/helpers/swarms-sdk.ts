import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createGenerator, type SchemaGenerator } from "ts-json-schema-generator";
import SwarmsClient from "../vendor/swarms-ts/src/index";

const SDK_SRC = path.join(__dirname, "../vendor/swarms-ts/src");
const SDK_RESOURCES = path.join(SDK_SRC, "resources");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/**
 * `METHOD /path` of every request the SDK makes, read from its source: each
 * `this._client.<method>('<path>'` of its resources, and the client's own `this.<method>('<path>'`
 * (its `getRoot()`).
 */
export function sdkCalls(): string[] {
  const calls: string[] = [];
  for (const file of filesUnder(SDK_RESOURCES).filter((f) => f.endsWith(".ts"))) {
    for (const [, method, route] of readFileSync(file, "utf8").matchAll(/this\._client\.(\w+)\(\s*'([^']*)'/g))
      calls.push(`${method.toUpperCase()} ${route}`);
  }
  const client = readFileSync(path.join(SDK_SRC, "client.ts"), "utf8");
  for (const [, method, route] of client.matchAll(/this\.(get|post|put|patch|delete)\(\s*'([^']*)'/g))
    calls.push(`${method.toUpperCase()} ${route}`);
  return calls;
}

/**
 * The hosted API's own TypeScript SDK, pointed at Apiary (no retries: a failure must show at once).
 * `sent`, when given, collects `METHOD /path` of every request the client makes.
 */
export function swarmsClient(baseUrl: string, apiKey: string, sent?: Set<string>): SwarmsClient {
  const fetchRecording: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    sent?.add(`${(init?.method ?? "GET").toUpperCase()} ${url.pathname}`);
    return fetch(input, init);
  };
  return new SwarmsClient({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 60_000, fetch: fetchRecording });
}

const generators = new Map<string, SchemaGenerator>();
const validators = new Map<string, ValidateFunction>();
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));

/**
 * Checks `value` against one of the SDK's response types (e.g. `SwarmRunResponse`), turned into a
 * JSON schema from the SDK's own source: what a client typed against the SDK may rely on.
 * `resource` names the SDK file declaring the type when two resources share a name (e.g.
 * `swarms/batch` for the swarm batch's `BatchRunResponse`). Returns the value typed, so a test can
 * go on reading it.
 */
export function expectSdkType<T = unknown>(typeName: string, value: unknown, resource = "index"): T {
  const id = `${resource}#${typeName}`;
  let validate = validators.get(id);
  if (!validate) {
    let generator = generators.get(resource);
    if (!generator) {
      generator = createGenerator({
        path: path.join(SDK_RESOURCES, `${resource}.ts`),
        tsconfig: path.join(__dirname, "../../tsconfig.json"),
        skipTypeCheck: true,
        expose: "all",
        topRef: false,
        additionalProperties: true,
      });
      generators.set(resource, generator);
    }
    validate = ajv.compile(generator.createSchema(typeName));
    validators.set(id, validate);
  }
  if (!validate(value)) {
    throw new Error(
      `not a valid ${typeName}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 2000)}`,
    );
  }
  return value as T;
}
