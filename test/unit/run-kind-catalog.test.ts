import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "koa";
import type { ApiDeps } from "../../api/deps";
import type { RateLimiter } from "../../api/limits/rate-limiter";
import { EXECUTION_API_INFO } from "../../api/openapi/document-info";
import { buildOpenApiDocument } from "../../api/openapi/document";
import { retryRefusal } from "../../api/runs/run-retry";
import { admissionOf, v1Routers } from "../../api/routes/v1";
import type { RetryCandidate } from "../../shared/db/runs/run-retries";
import { JOBS, keepsLaunchKey } from "../../shared/queues/registry";
import {
  jobOf,
  RUN_KIND_CATALOG,
  RUN_KINDS,
  RUN_PATHS,
  takesOwnSteps,
  type RunKind,
} from "../../shared/runs/run-kind-catalog";
import { plannedSteps } from "../../shared/swarms/planned-steps";
import { handlers } from "../../workers/handlers";

/** The `/v1` POST routes that start no run, each with why. */
const POSTS_STARTING_NO_RUN: Record<string, string> = {
  "/v1/marketplace/agents": "lists marketplace prompts",
  "/v1/swarm/estimate": "estimates a swarm request without running it",
  "/v1/webhooks/secret/rotate": "makes a new webhook signing secret",
  "/v1/jobs/:job_id/approve": "continues a parked run within the budget it was admitted with",
  "/v1/jobs/:job_id/reject": "continues a parked run within the budget it was admitted with",
  "/v1/responses/:response_id/cancel": "cancels a background response's run",
};

/**
 * The `/v1` POST routes that start a stored run again rather than a new one (so not a catalog
 * path): each counts against the daily ceiling too, as `admissionOf` says.
 */
const POSTS_RESTARTING_RUNS: Record<string, string> = {
  "/v1/jobs/:job_id/retry": "/v1/jobs/0b7e0000-0000-4000-8000-00000000ab12/retry",
};

/** Every `/v1` POST route the routers serve (built without serving: a router reads its deps per request). */
function v1PostRoutes(): string[] {
  const routers = v1Routers({} as ApiDeps, {} as RateLimiter);
  return routers.flatMap((router) =>
    router.stack.filter((layer) => layer.methods.includes("POST")).map((layer) => String(layer.path)),
  );
}

/**
 * What the compiler cannot say of the run-kind catalog (shared/runs/run-kind-catalog.ts): that its
 * paths are the routers' run routes, that kinds sharing a job agree on it, and that the views the
 * rest of the code reads (jobs, handlers, progress, retries, the docs) follow its entries.
 */
describe("the run-kind catalog", () => {
  it("every /v1 POST route either starts runs (a catalog path, so it counts against the daily ceiling) or is named here as starting none", () => {
    const posts = v1PostRoutes();
    expect(posts.length).to.be.above(RUN_PATHS.size);
    const unaccounted = posts.filter(
      (path) => !RUN_PATHS.has(path) && !(path in POSTS_STARTING_NO_RUN) && !(path in POSTS_RESTARTING_RUNS),
    );
    for (const example of Object.values(POSTS_RESTARTING_RUNS)) {
      const ctx = { method: "POST", path: example, request: { body: {} } } as unknown as Context;
      expect(admissionOf(ctx).startsRuns, `${example} counts against the daily ceiling`).to.equal(true);
    }
    expect(
      unaccounted,
      "a POST route that is neither a run path of the catalog nor named as starting none",
    ).to.deep.equal([]);
    expect(posts.filter((path) => path in POSTS_STARTING_NO_RUN && RUN_PATHS.has(path))).to.deep.equal([]);
  });

  it("every run path of the catalog is a routed POST, documented with a request body and in docs/api.md", () => {
    const posts = new Set(v1PostRoutes());
    const doc = buildOpenApiDocument(EXECUTION_API_INFO, v1Routers({} as ApiDeps, {} as RateLimiter));
    const apiDoc = readFileSync(join(__dirname, "..", "..", "docs", "api.md"), "utf8");
    for (const path of RUN_PATHS) {
      expect(posts.has(path), `${path} is routed`).to.equal(true);
      const post = (doc.paths[path] as { post?: { requestBody?: unknown } } | undefined)?.post;
      expect(post?.requestBody, `${path} documents its request body`).to.not.equal(undefined);
      expect(apiDoc, `docs/api.md names ${path}`).to.include(path);
    }
  });

  it("kinds that share a job agree on its queue and launch key; every job has a handler", () => {
    for (const kind of RUN_KINDS) {
      const entry = RUN_KIND_CATALOG[kind];
      expect(JOBS[jobOf(kind)], kind).to.deep.equal({ queue: entry.queue, launchKey: entry.launchKey });
      expect(keepsLaunchKey(entry.job), kind).to.equal(entry.launchKey === true);
      expect(handlers[jobOf(kind)], `the handler of ${entry.job}`).to.be.a("function");
    }
    expect(Object.keys(handlers).sort()).to.deep.equal(Object.keys(JOBS).sort());
  });

  it("a batch parent takes no steps itself and its items do; a kind the platform starts has no /v1 path", () => {
    for (const kind of RUN_KINDS) {
      const { childKind, launchKey, paths } = RUN_KIND_CATALOG[kind];
      if (childKind) {
        expect(takesOwnSteps(kind), kind).to.equal(false);
        expect(takesOwnSteps(childKind), `${kind}'s items`).to.equal(true);
        expect(RUN_KIND_CATALOG[childKind].childKind, `${kind}'s items`).to.equal(undefined);
      }
      if (launchKey) expect(paths, kind).to.deep.equal([]);
    }
  });

  it("kinds without steps of their own plan none; an operator retries no batch and no launch", () => {
    const failed = (kind: RunKind) =>
      ({
        id: "7c2a0000-0000-4000-8000-000000000001",
        kind,
        status: "failed",
        parent_id: null,
        api_key_id: "0b7e0000-0000-4000-8000-00000000ab12",
        key_revoked: false,
        queued_at: new Date(),
        request: { budget: { timeout_seconds: 60 } },
      }) as RetryCandidate;
    for (const kind of RUN_KINDS) {
      const { childKind, launchKey } = RUN_KIND_CATALOG[kind];
      if (!takesOwnSteps(kind)) expect(plannedSteps(kind, { agents: [], total_requests: 2 }), kind).to.equal(null);
      expect(retryRefusal(failed(kind)) === null, kind).to.equal(!childKind && !launchKey);
    }
  });
});
