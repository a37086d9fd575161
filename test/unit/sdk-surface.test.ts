import { expect } from "chai";
import { executionApiRouters } from "../../api/app";
import type { ApiDeps } from "../../api/deps";
import type { RateLimiter } from "../../api/limits/rate-limiter";
import { buildOpenApiDocument } from "../../api/openapi/document";
import { EXECUTION_API_INFO } from "../../api/openapi/document-info";
import { sdkCalls } from "../helpers/swarms-sdk";

/** `METHOD /path` of every operation of the execution API's OpenAPI document, built as `/openapi.json` builds it. */
function documentedOperations(): Set<string> {
  // Building routers touches none of their dependencies; only requests would.
  const { open, v1 } = executionApiRouters({} as ApiDeps, {} as RateLimiter);
  const doc = buildOpenApiDocument(EXECUTION_API_INFO, [...open, ...v1]);
  return new Set(
    Object.entries(doc.paths).flatMap(([route, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${route}`),
    ),
  );
}

describe("every call of the hosted API's SDK (swarms-ts) has an operation here", () => {
  const calls = sdkCalls();
  const documented = documentedOperations();

  it("finds all 21 of the SDK's calls, each once", () => {
    expect(calls).to.have.length(21);
    expect(new Set(calls).size).to.equal(21);
  });

  it("documents each of them", () => {
    const missing = calls.filter((call) => !documented.has(call));
    expect(missing, "SDK calls with no operation in the OpenAPI document").to.deep.equal([]);
  });
});
