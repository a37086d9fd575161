import { expect } from "chai";
import { Agent } from "node:http";
import { SESSION_COOKIE } from "../../api/pages/cookies";
import { revokeApiKey } from "../../shared/db/api-key-store";
import { setUserRole } from "../../shared/db/user-store";
import { config } from "../../shared/config";
import { announceKeyRevoked } from "../../shared/queues/run-notices";
import { createKey, createUser } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { makeRefusedCredentials } from "../helpers/hostile/bad-credentials";
import { allProbes } from "../helpers/hostile/all-probes";
import type { MutationClass, Probe } from "../helpers/hostile/probe";
import { documentedOperations, type DocumentedOperation } from "../helpers/hostile/operations";
import { describeOutcome, runProbes, type ProbeOutcome } from "../helpers/hostile/run-probes";
import { mapBounded } from "../helpers/hostile/send";
import {
  changedTables,
  fingerprintQueues,
  fingerprintTables,
  prototypeFingerprint,
  queuedJobs,
  rowsOwnedBy,
} from "../helpers/hostile/stored-state";
import { eventually, request } from "../helpers/http";

const CONCURRENCY = 8;
/** Operations only moderators may call (anyone else gets 403 first): probed as a moderator, so their body handling is exercised. */
const MODERATOR_OPERATIONS = new Set(["POST /api/moderate-prompt"]);
const SAFE_METHODS = new Set(["GET", "HEAD"]);

/** `10mb` → bytes, as the body parser reads the setting. */
function limitBytes(limit: string): number {
  const [, n, unit] = /^(\d+)(kb|mb)$/i.exec(limit)!;
  return Number(n) * (unit.toLowerCase() === "mb" ? 1024 * 1024 : 1024);
}

/** A fresh user with a premium key (the probes must not run into the free tier's per-minute limit). */
async function premiumKey(h: Harness, handle: string): Promise<{ key: string; userId: string; keyId: string }> {
  const user = await createUser(h.deps.ds, handle);
  return createKey(h.deps.ds, { userId: user.id, name: "hostile", tier: "premium" });
}

/** Waits until no queue has a job waiting or running, so stored state holds still while it is compared. */
async function queuesIdle(h: Harness): Promise<void> {
  await eventually(async () => {
    const counts = await Promise.all(
      h.deps.queues.all().map((q) => q.getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children")),
    );
    return counts.every((c) => Object.values(c).every((n) => n === 0)) ? true : undefined;
  }, 60_000);
}

async function bothServersHealthy(h: Harness): Promise<string[]> {
  const answers = await Promise.all(
    [h.baseUrl, h.platformUrl].map((url) =>
      request(url, "GET", "/health").catch((err: Error) => ({ status: 0, body: err.message })),
    ),
  );
  return answers.flatMap((res, i) =>
    res.status === 200
      ? []
      : [`${i === 0 ? "execution API" : "platform"} /health answered ${res.status} ${JSON.stringify(res.body)}`],
  );
}

function failureReport(outcomes: ProbeOutcome[]): string {
  const failed = outcomes.filter((o) => o.problems.length > 0);
  const shown = failed.slice(0, 40).map(describeOutcome);
  const tally = new Map<string, number>();
  for (const o of failed) {
    const key = `${o.probe.cls} → ${o.res?.status ?? "no answer"}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  const summary = [...tally].map(([key, n]) => `${key}: ${n}`).join(", ");
  return `${failed.length} of ${outcomes.length} probes failed (${summary}):\n${shown.join("\n")}${failed.length > shown.length ? `\n… and ${failed.length - shown.length} more` : ""}`;
}

/**
 * Hostile input, generated from the served OpenAPI documents: for every operation of both apps,
 * requests with wrong types, missing and unknown fields, huge and deeply nested values, bad
 * Unicode, hostile numbers, prototype keys, wrong content types and encodings, malformed JSON,
 * bad credentials, garbage path and query parameters and headers, and undocumented methods. No
 * answer may be a 5xx; every error is in its app's documented body; nothing a refused request
 * sent is stored or queued; no prototype is polluted; both servers keep answering.
 */
describe("hostile input against every documented operation", function () {
  this.timeout(240_000);
  let h: Harness;
  let operations: DocumentedOperation[];
  let probes: Probe[];
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const operationKeys = new Map<string, string>();

  before(async () => {
    h = await harness();
    const [api, platform] = await Promise.all([
      request(h.baseUrl, "GET", "/openapi.json"),
      request(h.platformUrl, "GET", "/openapi.json"),
    ]);
    operations = documentedOperations([
      { app: "api", baseUrl: h.baseUrl, doc: api.body },
      { app: "platform", baseUrl: h.platformUrl, doc: platform.body },
    ]);
    const revoked = await premiumKey(h, `hostile-revoked-${process.pid}`);
    await revokeApiKey(h.deps.ds, revoked.keyId);
    await announceKeyRevoked(h.deps.redis, revoked.keyId);
    const refused = await makeRefusedCredentials(config.platform.session.jwtSecret!, revoked.key);
    probes = allProbes(operations, {
      refused,
      bodyLimitBytes: limitBytes(config.http.bodyLimit) + 1,
      sessionCookie: SESSION_COOKIE,
    });
    for (const op of operations) {
      const caller = await premiumKey(h, `hostile-${process.pid}-${op.app}-${op.label}`);
      if (MODERATOR_OPERATIONS.has(op.label)) await setUserRole(h.deps.ds, caller.userId, "moderator");
      operationKeys.set(op.label, caller.key);
    }
  });

  after(() => agent.destroy());

  it("covers every operation with each mutation class that applies to it", () => {
    const classesOf = (op: DocumentedOperation) => new Set(probes.filter((p) => p.target === op).map((p) => p.cls));
    const missing: string[] = [];
    for (const op of operations) {
      const expected: MutationClass[] = [];
      if (op.body)
        expected.push(
          "wrong-type",
          "extra-fields",
          "body-limit",
          "deep-nesting",
          "bad-unicode",
          "prototype-keys",
          "content-type",
          "malformed-json",
          "content-encoding",
        );
      if (op.body?.example !== undefined) expected.push("control");
      if (op.credentials.length) expected.push("bad-auth");
      if (op.parameters.some((p) => p.in === "path")) expected.push("path-param");
      if (op.parameters.some((p) => p.in === "query")) expected.push("query-param");
      if (op.parameters.some((p) => p.in === "header")) expected.push("header-param");
      const have = classesOf(op);
      for (const cls of expected) if (!have.has(cls)) missing.push(`${op.label}: ${cls}`);
    }
    expect(missing, "operations without probes of a class that applies to them").to.deep.equal([]);
    expect(operations.map((o) => o.label)).to.include.members([
      "POST /v1/agent/completions",
      "GET /v1/jobs/{job_id}",
      "GET /prompt/{id}",
      "POST /platform/api-keys",
    ]);
    expect(probes.filter((p) => p.cls === "wrong-method").length).to.be.greaterThan(10);
  });

  it("refuses what the documents call invalid with a 4xx in the documented body, storing and queueing nothing", async () => {
    const refusedProbes = probes.filter((p) => p.expect.kind === "refused" || SAFE_METHODS.has(p.method));
    await queuesIdle(h);
    const [tablesBefore, queuesBefore, protoBefore] = [
      await fingerprintTables(h.deps.ds),
      await fingerprintQueues(h.deps.queues.all()),
      prototypeFingerprint(),
    ];
    const outcomes: ProbeOutcome[] = [];
    const unhealthy: string[] = [];
    // One operation at a time, so a server that stops answering is caught right after the batch that stopped it.
    for (const op of operations) {
      const batch = refusedProbes.filter((p) => p.target.label === op.label && p.target.app === op.app);
      outcomes.push(...(await runProbes(batch, agent, CONCURRENCY, () => operationKeys.get(op.label)!)));
      unhealthy.push(...(await bothServersHealthy(h)).map((line) => `after ${op.label}: ${line}`));
    }
    // Probes of paths no operation has (unknown paths) are sent without credentials.
    const orphans = refusedProbes.filter(
      (p) => !operations.some((op) => op.label === p.target.label && op.app === p.target.app),
    );
    outcomes.push(...(await runProbes(orphans, agent, CONCURRENCY, () => "")));
    expect(unhealthy, "servers stopped answering").to.deep.equal([]);
    expect(
      outcomes.filter((o) => o.problems.length),
      failureReport(outcomes),
    ).to.deep.equal([]);

    expect(({} as any).polluted, "Object.prototype polluted").to.equal(undefined);
    expect(prototypeFingerprint(), "built-in prototypes changed").to.equal(protoBefore);
    expect(
      changedTables(tablesBefore, await fingerprintTables(h.deps.ds)),
      "tables changed by refused requests",
    ).to.deep.equal([]);
    expect(await fingerprintQueues(h.deps.queues.all()), "jobs queued by refused requests").to.deep.equal(queuesBefore);
  });

  it("answers requests valid by the documents without a 5xx, and whatever it refuses leaves nothing behind", async () => {
    // Requests the schema cannot call invalid may be accepted and run: each gets its own key, so
    // what it stored is traced back to it, and one that was refused must own nothing.
    const candidates = probes.filter((p) => p.expect.kind !== "refused" && !SAFE_METHODS.has(p.method));
    const runnable = candidates.filter((p) => !p.target.body || p.target.body.example !== undefined);
    const callers = await mapBounded(runnable, CONCURRENCY, (_, i) =>
      premiumKey(h, `hostile-${process.pid}-valid-${i}`),
    );
    const keys = new Map(runnable.map((probe, i) => [probe, callers[i]]));
    const ownedBefore = await rowsOwnedBy(h.deps.ds, callers);
    const jobsBefore = await queuedJobs(h.deps.queues.all());
    const protoBefore = prototypeFingerprint();

    // The documents allow any string as a model name (a gateway may serve any), and the probes put
    // odd text in the first string field, a model name on some paths: the catch-all serves it.
    // It stays on until the runs they started have ended.
    h.sim.acceptAnyModel(true);
    const outcomes = await runProbes(runnable, agent, CONCURRENCY, (p) => keys.get(p)!.key);
    await queuesIdle(h).finally(() => h.sim.acceptAnyModel(false));
    expect(await bothServersHealthy(h), "servers stopped answering").to.deep.equal([]);
    expect(
      outcomes.filter((o) => o.problems.length),
      failureReport(outcomes),
    ).to.deep.equal([]);
    expect(({} as any).polluted, "Object.prototype polluted").to.equal(undefined);
    expect(prototypeFingerprint(), "built-in prototypes changed").to.equal(protoBefore);

    const ownedAfter = await rowsOwnedBy(h.deps.ds, callers);
    const leftovers = outcomes
      .filter((o) => o.res && o.res.status >= 400)
      .flatMap((o) => {
        const { keyId } = keys.get(o.probe)!;
        const grown = Object.entries(ownedAfter.get(keyId)!).filter(
          ([where, n]) => n !== (ownedBefore.get(keyId)![where] ?? 0),
        );
        return grown.length
          ? [
              `${o.probe.target.label} — ${o.probe.cls}: ${o.probe.name} → ${o.res!.status}, yet stored ${grown.map(([w, n]) => `${w}=${n}`).join(", ")}`,
            ]
          : [];
      });
    expect(leftovers, "refused requests that stored something").to.deep.equal([]);

    // Every job queued meanwhile runs a stored run of a request that was accepted.
    const acceptedKeys = new Set(
      outcomes.filter((o) => o.res && o.res.status < 400).map((o) => keys.get(o.probe)!.keyId),
    );
    const added = [...(await queuedJobs(h.deps.queues.all())).entries()].filter(([id]) => !jobsBefore.has(id));
    const runs: { id: string; api_key_id: string | null }[] = await h.deps.ds.query(
      `SELECT id::text, api_key_id::text FROM runs WHERE id::text = ANY($1)`,
      [added.map(([id]) => id)],
    );
    const owners = new Map(runs.map((r) => [r.id, r.api_key_id]));
    const strays = added
      .filter(([id]) => !acceptedKeys.has(owners.get(id) ?? ""))
      .map(([id, job]) => `${job.queue} job ${id} (${JSON.stringify(job.data)}) runs no run of an accepted request`);
    expect(strays, "jobs queued for refused requests").to.deep.equal([]);
    expect(added.length, "the accepted requests ran").to.be.greaterThan(0);
    expect(runnable.length, "requests valid by the documents were sent").to.be.greaterThan(20);
  });
});
