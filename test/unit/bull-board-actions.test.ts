import { appRoutes, buildHistoryRoutes } from "@bull-board/api/dist/routes.js";
import type { BullBoardRequest, HookContext } from "@bull-board/api/typings/app";
import { expect } from "chai";
import { BOARD_ACTIONS, boardActionPolicy } from "../../api/http/bull-board-actions";

/** Every route of the installed Bull Board's API, as `method route`, history routes included. */
function installedRoutes(): string[] {
  const history = buildHistoryRoutes({} as never, { hasUsage: true, canPurge: true, hasLatency: true });
  return [...appRoutes.api, ...history].flatMap((r) =>
    [r.method].flat().flatMap((method) => [r.route].flat().map((route) => `${String(method).toLowerCase()} ${route}`)),
  );
}

/** What Bull Board's hook is asked for one request. */
function ask(method: HookContext["method"], route: string, params: Record<string, string> = {}, jobState?: string) {
  const queue = { getJob: async () => (jobState ? { getState: async () => jobState } : undefined) };
  const request = { queues: new Map([["swarm", queue]]), params, query: {}, body: {} } as unknown as BullBoardRequest;
  return boardActionPolicy.before!({ method, route, request });
}

describe("Bull Board's actions on run jobs", () => {
  it("has a rule for every write route of the installed Bull Board, and for nothing else", () => {
    const writes = installedRoutes().filter((r) => !r.startsWith("get "));
    expect(writes.length).to.be.above(20); // the route list was read
    expect(Object.keys(BOARD_ACTIONS).sort()).to.deep.equal([...new Set(writes)].sort());
  });

  it("lets reads through, refuses a write it does not know, and cleans only finished jobs", async () => {
    expect(await ask("get", "/api/queues")).to.equal(undefined);
    expect(await ask("get", "/api/queues/:queueName/:jobId/logs")).to.equal(undefined);
    expect(await ask("put", "/api/queues/:queueName/something-new")).to.deep.include({ allow: false, status: 403 });
    expect(await ask("put", "/api/queues/:queueName/pause")).to.equal(undefined);
    for (const status of ["completed", "failed"])
      expect(await ask("put", "/api/queues/:queueName/clean/:queueStatus", { queueStatus: status })).to.equal(
        undefined,
      );
    for (const status of ["wait", "delayed", "active", "paused", "prioritized"])
      expect(await ask("put", "/api/queues/:queueName/clean/:queueStatus", { queueStatus: status })).to.deep.include({
        allow: false,
        errorKey: "ERRORS.FORBIDDEN",
      });
    const clean = "/api/queues/:queueName/:jobId/clean";
    expect(await ask("put", clean, { queueName: "swarm", jobId: "j" }, "failed")).to.equal(undefined);
    expect(await ask("put", clean, { queueName: "swarm", jobId: "j" }, "completed")).to.equal(undefined);
    expect(await ask("put", clean, { queueName: "swarm", jobId: "j" }, "waiting")).to.deep.include({ status: 409 });
    expect(await ask("put", clean, { queueName: "swarm", jobId: "gone" })).to.equal(undefined); // the board's own 404
  });
});
