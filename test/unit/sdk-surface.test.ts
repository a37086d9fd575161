import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { executionApiRouters } from "../../api/app";
import type { ApiDeps } from "../../api/deps";
import type { RateLimiter } from "../../api/limits/rate-limiter";
import { buildOpenApiDocument } from "../../api/openapi/document";
import { EXECUTION_API_INFO } from "../../api/openapi/document-info";

const SDK_SRC = path.join(__dirname, "../vendor/swarms-ts/src");

/**
 * SDK calls that other branches of issue 16 are building (reasoning agents, the auto swarm
 * builder, advanced research, the batched grid and graph workflows, the tools list). The lead
 * removes each line as its branch merges, until the set is empty; the test fails for a path that
 * is listed here yet documented, so the list cannot go stale.
 */
const PENDING = new Set<string>([]);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/**
 * `METHOD /path` of every request the SDK makes: each `this._client.<method>('<path>'` of its
 * resources, and the client's own `this.<method>('<path>'` (its `getRoot()`).
 */
function sdkCalls(): string[] {
  const calls: string[] = [];
  const resources = filesUnder(path.join(SDK_SRC, "resources")).filter((f) => f.endsWith(".ts"));
  for (const file of resources) {
    for (const [, method, route] of readFileSync(file, "utf8").matchAll(/this\._client\.(\w+)\(\s*'([^']*)'/g))
      calls.push(`${method.toUpperCase()} ${route}`);
  }
  const client = readFileSync(path.join(SDK_SRC, "client.ts"), "utf8");
  for (const [, method, route] of client.matchAll(/this\.(get|post|put|patch|delete)\(\s*'([^']*)'/g))
    calls.push(`${method.toUpperCase()} ${route}`);
  return calls;
}

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
    for (const pending of PENDING)
      expect(calls, `PENDING names ${pending}, which the SDK never calls`).to.include(pending);
  });

  it("documents each call that is not pending", () => {
    const missing = calls.filter((call) => !PENDING.has(call) && !documented.has(call));
    expect(missing, "SDK calls with no operation in the OpenAPI document").to.deep.equal([]);
  });

  it("lists as pending only calls that are not documented yet (the lead empties PENDING as branches merge)", () => {
    const done = [...PENDING].filter((call) => documented.has(call));
    expect(done, "documented now: remove them from PENDING").to.deep.equal([]);
  });
});
