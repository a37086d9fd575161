import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { createApiApp } from "../../api/app";
import { loadConfig } from "../../shared/config";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { serveApp, type ServedApp } from "../helpers/platform-app";

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** The password every checkout of this repository once accepted. */
const FORMER_DEFAULT = basic("admin", "apiary-dev-admin");

/**
 * Who gets into Bull Board, and what they may do there: no password the repository holds is ever
 * accepted, no password configured keeps the board closed, and its actions are refused unless the
 * operator turns them on (`BULL_BOARD_WRITES`).
 */
describe("Bull Board's credentials and write mode", () => {
  let h: Harness;
  const served: ServedApp[] = [];
  before(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await Promise.all(served.splice(0).map((s) => s.close()));
  });

  /** An execution API whose board has the admin settings `env` gives (on top of the tests' own). */
  async function boardWith(env: Record<string, string>): Promise<string> {
    const { admin } = loadConfig({ SECRETS_KEY: "s".repeat(32), ...env });
    const app = await serveApp(createApiApp(h.deps, { admin }));
    served.push(app);
    return app.url;
  }

  it("never accepts the repository's former default credentials, in any NODE_ENV", async () => {
    for (const NODE_ENV of ["development", "test", "production"]) {
      const password = randomBytes(12).toString("hex");
      const url = await boardWith({ NODE_ENV, ADMIN_PASSWORD: password });
      const refused = await request(url, "GET", "/admin/queues/api/queues", {
        headers: { authorization: FORMER_DEFAULT },
      });
      expect(refused.status, NODE_ENV).to.equal(401);
      expect(refused.body.code).to.equal("AUTHENTICATION_FAILED");
      const allowed = await request(url, "GET", "/admin/queues/api/queues", {
        headers: { authorization: basic("admin", password) },
      });
      expect(allowed.status, NODE_ENV).to.equal(200);
      // Nor may it be configured: a copied old .env is refused at start.
      expect(() => loadConfig({ NODE_ENV, SECRETS_KEY: "s".repeat(32), ADMIN_PASSWORD: "apiary-dev-admin" })).to.throw(
        /ADMIN_PASSWORD/,
      );
    }
  });

  it("keeps the board closed when no password is configured, naming the variable", async () => {
    for (const NODE_ENV of ["development", "test"]) {
      const url = await boardWith({ NODE_ENV });
      for (const authorization of [FORMER_DEFAULT, basic("admin", ""), undefined]) {
        for (const path of [
          "/admin/queues",
          "/admin/queues/api/queues",
          "/ADMIN/queues/api/queues/swarm/retry/failed",
        ]) {
          const res = await request(url, path.includes("retry") ? "PUT" : "GET", path, {
            headers: authorization ? { authorization } : {},
          });
          expect(res.status, `${NODE_ENV} ${path}`).to.equal(403);
          expect(res.body.code).to.equal("ADMIN_CLOSED");
          expect(res.body.detail).to.include("ADMIN_PASSWORD");
        }
      }
    }
  });

  it("is read-only unless BULL_BOARD_WRITES=true: every action is refused with a clear error", async () => {
    const password = randomBytes(12).toString("hex");
    const authorization = basic("admin", password);
    const readOnly = await boardWith({ ADMIN_PASSWORD: password });
    const reads = await request(readOnly, "GET", "/admin/queues/api/queues", { headers: { authorization } });
    expect(reads.status).to.equal(200);
    expect(reads.body.queues.map((q: { readOnlyMode: boolean }) => q.readOnlyMode)).to.satisfy((modes: boolean[]) =>
      modes.every(Boolean),
    );
    const actions: [string, string][] = [
      ["PUT", "/admin/queues/api/queues/swarm/retry/failed"],
      ["PUT", "/admin/queues/api/queues/swarm/some-job/retry"],
      ["PUT", "/admin/queues/api/queues/swarm/clean/completed"],
      ["PUT", "/admin/queues/api/queues/swarm/some-job/promote"],
      ["PUT", "/admin/queues/api/queues/swarm/some-job/clean"],
      ["PUT", "/admin/queues/api/queues/swarm/pause"],
      ["PATCH", "/admin/queues/api/queues/swarm/some-job/update-data"],
      ["POST", "/admin/queues/api/queues/swarm/add"],
    ];
    for (const [method, path] of actions) {
      const res = await request(readOnly, method, path, { headers: { authorization }, body: {} });
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body).to.deep.equal({
        error: { key: "ERRORS.FORBIDDEN" },
        message: "Bull Board is read-only: set BULL_BOARD_WRITES=true to allow its actions (retry, clean, promote…)",
      });
    }

    // With writes on, the same routes reach the board and Apiary's retry: an unknown job is theirs to answer.
    const writable = await boardWith({ ADMIN_PASSWORD: password, BULL_BOARD_WRITES: "true" });
    const retry = await request(writable, "PUT", "/admin/queues/api/queues/swarm/some-job/retry", {
      headers: { authorization },
    });
    expect(retry.status).to.equal(404);
    const retryAll = await request(writable, "PUT", "/admin/queues/api/queues/swarm/retry/failed", {
      headers: { authorization },
    });
    expect(retryAll.status).to.equal(200);
    expect(retryAll.body).to.include.keys("retried", "skipped");
  });
});
