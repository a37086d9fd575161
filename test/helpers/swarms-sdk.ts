import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import path from "node:path";
import { createGenerator, type SchemaGenerator } from "ts-json-schema-generator";
import SwarmsClient from "../vendor/swarms-ts/src/index";

const SDK_RESOURCES = path.join(__dirname, "../vendor/swarms-ts/src/resources");

/** The hosted API's own TypeScript SDK, pointed at Apiary (no retries: a failure must show at once). */
export function swarmsClient(baseUrl: string, apiKey: string): SwarmsClient {
  return new SwarmsClient({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 60_000 });
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
