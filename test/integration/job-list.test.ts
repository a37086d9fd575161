import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { runListStatement } from "../../shared/db/runs/run-lists";
import { createRun } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

/** `GET /v1/jobs`: an account's runs, newest first, filtered, paged by a signed keyset cursor. */
describe("GET /v1/jobs", function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  const list = (key: string, query = "") => request(h.baseUrl, "GET", `/v1/jobs${query}`, { key });

  /** Every page of a listing, following `next_cursor`, with `query` kept on each page. */
  async function allPages(key: string, query: string, between?: () => Promise<void>) {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const res = await list(key, `?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      ids.push(...res.body.jobs.map((j: { job_id: string }) => j.job_id));
      cursor = res.body.next_cursor;
      if (!cursor) return ids;
      await between?.();
    }
    throw new Error("more than 50 pages");
  }

  const ownerOf = async () => {
    const made = await h.newKey();
    return { ...made, owner: { apiKeyId: made.keyId, userId: made.userId } };
  };

  it("lists a real run as a slim summary whose cost is the bill the job read shows", async () => {
    const { key } = await ownerOf();
    const ran = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Lister", model_name: "gpt-4o-mini" }, task: "name a bee" },
    });
    expect(ran.status, JSON.stringify(ran.body)).to.equal(200);
    const res = await list(key);
    expect(res.status).to.equal(200);
    expect(res.body.next_cursor).to.equal(null);
    expect(res.body.jobs).to.have.length(1);
    const [job] = res.body.jobs;
    expect(job).to.have.all.keys(
      "job_id",
      "kind",
      "status",
      "created_at",
      "started_at",
      "finished_at",
      "cost",
      "model",
      "swarm_type",
      "parent_id",
      "item_index",
    );
    expect(job).to.include({ job_id: ran.body.job_id, kind: "agent", status: "success", model: "gpt-4o-mini" });
    expect(job.cost).to.be.greaterThan(0).and.to.equal(ran.body.usage.total_cost);
    expect(Date.parse(job.finished_at)).to.be.at.least(Date.parse(job.started_at));
  });

  it("lists newest first, top-level runs by default, a batch's items by `parent` or `include_items`", async () => {
    const { key, owner } = await ownerOf();
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const old = await createRun(h.deps.ds, { kind: "agent", status: "succeeded", owner, queuedAt: at(1) });
    const batch = await createRun(h.deps.ds, { kind: "agent_batch", status: "running", owner, queuedAt: at(2) });
    const items = [];
    for (const i of [0, 1]) {
      items.push(
        await createRun(h.deps.ds, {
          kind: "agent",
          status: "running",
          owner,
          parentId: batch.id,
          itemIndex: i,
          queuedAt: at(3 + i),
        }),
      );
    }
    const swarm = await createRun(h.deps.ds, { kind: "swarm", owner, queuedAt: at(5) });
    // Another account's runs never appear, whatever the filters.
    await createRun(h.deps.ds, { kind: "agent", status: "succeeded", queuedAt: at(6) });

    const top = (await list(key)).body.jobs;
    expect(top.map((j: any) => j.job_id)).to.deep.equal([swarm.job_id, batch.job_id, old.job_id]);
    expect(top[0]).to.include({ kind: "swarm", status: "queued", swarm_type: "SequentialWorkflow", cost: null });
    const everything = (await list(key, "?include_items=true")).body.jobs.map((j: any) => j.job_id);
    expect(everything).to.deep.equal([swarm, items[1], items[0], batch, old].map((r) => r.job_id));
    const ofBatch = (await list(key, `?parent=${batch.job_id}`)).body.jobs;
    expect(ofBatch.map((j: any) => [j.job_id, j.parent_id, j.item_index])).to.deep.equal([
      [items[1].job_id, batch.job_id, 1],
      [items[0].job_id, batch.job_id, 0],
    ]);
    const stranger = await ownerOf();
    expect((await list(stranger.key)).body.jobs).to.deep.equal([]);
    expect((await list(stranger.key, `?parent=${batch.job_id}`)).status).to.equal(404);
    expect((await list(key, `?parent=${randomUUID()}`)).status).to.equal(404);
    expect((await list(key, `?parent=not-a-uuid`)).status).to.equal(404);
  });

  it("filters by status, kind and creation time", async () => {
    const { key, owner } = await ownerOf();
    const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 0, 0, s));
    const a = await createRun(h.deps.ds, { kind: "agent", status: "succeeded", owner, queuedAt: at(1) });
    const b = await createRun(h.deps.ds, { kind: "swarm", status: "failed", owner, queuedAt: at(2) });
    const c = await createRun(h.deps.ds, { kind: "agent", status: "running", owner, queuedAt: at(3) });
    const ids = async (query: string) => {
      const res = await list(key, query);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.jobs.map((j: any) => j.job_id);
    };
    expect(await ids("?status=success")).to.deep.equal([a.job_id]);
    expect(await ids("?status=running,failed")).to.deep.equal([c.job_id, b.job_id]);
    expect(await ids("?kind=swarm")).to.deep.equal([b.job_id]);
    expect(await ids("?kind=agent&status=running")).to.deep.equal([c.job_id]);
    expect(await ids(`?created_after=${at(2).toISOString()}`)).to.deep.equal([c.job_id, b.job_id]);
    expect(await ids(`?created_before=${at(2).toISOString()}`)).to.deep.equal([a.job_id]);
    expect(await ids(`?created_after=${at(2).toISOString()}&created_before=${at(3).toISOString()}`)).to.deep.equal([
      b.job_id,
    ]);
  });

  it("pages by cursor without gaps or repeats while runs are created between pages, ties included", async () => {
    const { key, owner } = await ownerOf();
    const same = new Date(Date.UTC(2026, 0, 3));
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(
        (await createRun(h.deps.ds, { kind: "agent", owner, queuedAt: i < 4 ? same : new Date(same.getTime() - i) }))
          .job_id,
      );
    }
    let inserted = 0;
    const seen = await allPages(key, "limit=2", async () => {
      inserted++;
      await createRun(h.deps.ds, { kind: "agent", owner }); // newer than every listed run: never on a later page
    });
    expect(inserted).to.equal(3);
    expect(seen).to.have.length(7);
    expect(new Set(seen).size).to.equal(7);
    expect([...seen].sort()).to.deep.equal([...made].sort());
  });

  it("keeps microsecond creation times apart across a page boundary", async () => {
    const { key, userId } = await ownerOf();
    // Two runs 1 µs apart: a cursor that kept milliseconds only would skip or repeat one.
    const ids = [randomUUID(), randomUUID()];
    await h.deps.ds.query(
      `INSERT INTO runs (id, job_id, kind, user_id, status, request, queued_at)
       SELECT id, id::text, 'agent', $2, 'queued', '{}'::jsonb, '2026-01-04 00:00:00.000001+00'::timestamptz - (n * interval '1 microsecond')
         FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`,
      [ids, userId],
    );
    expect(await allPages(key, "limit=1")).to.deep.equal(ids);
  });

  it("refuses a malformed, altered or foreign cursor with 400 INVALID_CURSOR", async () => {
    const { key, owner } = await ownerOf();
    for (let i = 0; i < 3; i++) await createRun(h.deps.ds, { kind: "agent", owner });
    const first = await list(key, "?limit=1");
    const cursor: string = first.body.next_cursor;
    expect(cursor).to.be.a("string");
    const [body, mac] = cursor.split(".");
    const position = JSON.parse(Buffer.from(body, "base64url").toString());
    const forgedBody = Buffer.from(JSON.stringify({ ...position, id: randomUUID() })).toString("base64url");
    const stranger = await ownerOf();
    const refusals = [
      [key, "?cursor=garbage"],
      [key, `?cursor=${forgedBody}.${mac}`],
      [key, `?cursor=${body}.${mac}x`],
      [key, `?cursor=${cursor}.extra`],
      [key, `?cursor=${encodeURIComponent('{"queuedAtUs":"1"}')}`],
      [key, `?limit=1&status=queued&cursor=${cursor}`], // the same cursor with another filter
      [stranger.key, `?limit=1&cursor=${cursor}`], // another account
    ];
    for (const [caller, query] of refusals) {
      const res = await list(caller, query);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.code).to.equal("INVALID_CURSOR");
    }
    const next = await list(key, `?limit=1&cursor=${cursor}`);
    expect(next.status).to.equal(200);
    expect(next.body.jobs).to.have.length(1);
  });

  it("answers hostile query strings with a 422, never a 500", async () => {
    const { key } = await ownerOf();
    const hostile = [
      "?limit=abc",
      "?limit=101",
      "?limit=0",
      "?limit=1e400",
      "?limit=99999999999999999999",
      "?limit=1&limit=2",
      "?status=success&status=failed",
      "?status=succeeded",
      "?status=",
      "?kind=nonsense",
      "?created_after=yesterday",
      "?created_before=2026-13-45",
      "?include_items=maybe",
      "?unknown_filter=1",
      "?cursor=" + "a".repeat(5000),
      "?parent=" + "x".repeat(200),
      "?__proto__[x]=1",
    ];
    for (const query of hostile) {
      const res = await list(key, query);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(422);
      expect(res.body.code).to.equal("VALIDATION_ERROR");
    }
  });

  it("reads an account with many runs through its index, bounded by the page", async function () {
    this.timeout(120_000);
    const { userId } = await ownerOf();
    const ROWS = 100_000;
    await h.deps.ds.query(
      `INSERT INTO runs (id, job_id, kind, user_id, status, request, queued_at)
       SELECT u, u::text, 'agent', $1, CASE WHEN n % 1000 = 0 THEN 'failed' ELSE 'succeeded' END, '{}'::jsonb,
              now() - n * interval '1 second'
         FROM (SELECT gen_random_uuid() AS u, n FROM generate_series(1, $2) AS n) g`,
      [userId, ROWS],
    );
    await h.deps.ds.query("ANALYZE runs");
    const plan = async (filter: Parameters<typeof runListStatement>[1]) => {
      const { text, params } = runListStatement(
        userId,
        filter,
        { queuedAtUs: `${Date.now() * 1000 - 5e9}`, id: randomUUID() },
        21,
      );
      const [
        {
          "QUERY PLAN": [root],
        },
      ] = await h.deps.ds.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params);
      return JSON.stringify(root);
    };
    const top = await plan({ scope: { top: true } });
    expect(top).to.include('"Index Name":"runs_user_top_level_idx"');
    expect(top).not.to.include("Seq Scan");
    expect(top).not.to.include('"Node Type":"Sort"');
    const failed = await plan({ scope: { top: true }, statuses: ["failed"] });
    expect(failed).to.include('"Index Name":"runs_user_status_top_level_idx"');
    expect(failed).not.to.include('"Node Type":"Sort"');
    // Bounded: the scans read a page's worth of rows, not the account's.
    for (const shown of [top, failed]) {
      const scanned = Math.max(...[...shown.matchAll(/"Actual Rows":(\d+)/g)].map((m) => Number(m[1])));
      expect(scanned, shown).to.be.at.most(21);
    }
  });
});
