import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { createApiApp } from "../../api/app";
import { OpenRequests } from "../../api/limits/open-requests";
import { config } from "../../shared/config";
import { createRedis } from "../../shared/queues/redis";
import { createKey } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { serveApp } from "../helpers/platform-app";

const AGENT_COMPLETIONS = "/v1/agent/completions";

/** An agent run whose one LLM call takes `latencyMs`: it holds its stream or wait that long. */
const slowAgent = (task: string, latencyMs = 20_000) => ({
  agent_config: { agent_name: "Holder", max_loops: 1, llm_args: { sim_latency_ms: latencyMs } },
  task,
});

/** An open stream: its status, the job id of its metadata frame, and a way to hang up. */
interface OpenStream {
  status: number;
  jobId?: string;
  headers: Headers;
  body?: any;
  close(): void;
}

/**
 * Opens a streaming agent request and reads until `until` appears (the metadata frame by default;
 * `event: start` once the worker's first event came through the process's stream reader).
 */
async function openStream(baseUrl: string, key: string, task: string, until = "data: "): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}${AGENT_COMPLETIONS}`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ ...slowAgent(task), stream: true }),
    signal: abort.signal,
  });
  const close = () => abort.abort();
  if (res.status !== 200) return { status: res.status, headers: res.headers, body: await res.json(), close };
  const reader = res.body!.getReader();
  let text = "";
  while (!text.includes(until)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  const jobId = /"job_id":"([^"]+)"/.exec(text)?.[1];
  return { status: 200, jobId, headers: res.headers, close };
}

/** Runs of a user, as rows: a refused request must leave none. */
async function runsOf(h: Harness, userId: string): Promise<number> {
  const [{ n }] = await h.deps.ds.query(`SELECT count(*)::int AS n FROM runs WHERE user_id = $1`, [userId]);
  return n;
}

/** Redis connections open on this run's Redis database (the test process's own: web, workers, harness). */
async function redisConnections(): Promise<number> {
  const admin = createRedis("blocking");
  try {
    const db = ` db=${new URL(config.redisUrl).pathname.slice(1) || "0"} `;
    // Less the one asking.
    return (
      String(await admin.client("LIST"))
        .split("\n")
        .filter((line) => line.includes(db)).length - 1
    );
  } finally {
    admin.disconnect();
  }
}

/** Caps on the streams and synchronous waits a key and an account hold open at once (429 past them). */
describe("open-request caps: streams and synchronous waits per key and per account", function () {
  this.timeout(60_000);
  let h: Harness;
  let served: { url: string; close(): Promise<void> };
  const streams: OpenStream[] = [];
  const jobs: { id: string; key: string }[] = [];

  before(async () => {
    h = await harness();
    // Small caps, so a handful of streams reach them; the same code as the defaults.
    const openRequests = new OpenRequests(h.deps.redis, {
      tiers: { free: { perKey: 3, perAccount: 5 } },
      prefix: `open-test:${randomUUID()}`,
    });
    served = await serveApp(createApiApp(h.deps, { bullBoard: false, openRequests }));
  });

  /** Opens a stream and remembers it, so it is closed and its run cancelled after the test. */
  async function held(key: string, task: string, until?: string): Promise<OpenStream> {
    const stream = await openStream(served.url, key, task, until);
    streams.push(stream);
    if (stream.jobId) jobs.push({ id: stream.jobId, key });
    return stream;
  }

  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    await Promise.all(
      jobs.splice(0).map(({ id, key }) => request(h.baseUrl, "DELETE", `/v1/jobs/${id}`, { key }).catch(() => null)),
    );
  });

  after(async () => {
    await served.close();
  });

  it("refuses a key's fourth stream with 429 and Retry-After, before any run exists; a second key of the account meets the account's cap; another account is unaffected", async () => {
    const a = await h.newKey();
    const b = await createKey(h.deps.ds, { userId: a.userId, name: "second" });
    for (let i = 0; i < 3; i++) expect((await held(a.key, `a-${i}`)).status).to.equal(200);
    const runsBefore = await runsOf(h, a.userId);

    const fourth = await held(a.key, "a-refused");
    expect(fourth.status).to.equal(429);
    expect(fourth.body).to.deep.include({ code: "RATE_LIMITED", status_code: 429 });
    expect(fourth.body.detail).to.match(/at most 3 .*per API key \(free tier\)/);
    expect(Number(fourth.headers.get("retry-after"))).to.be.at.least(1);
    expect(fourth.headers.get("x-ratelimit-tier")).to.equal("free");
    expect(await runsOf(h, a.userId), "runs of the account after the refusal").to.equal(runsBefore);

    // The account holds 3 of its 5: the second key gets two more, then the account's cap.
    for (let i = 0; i < 2; i++) expect((await held(b.key, `b-${i}`)).status).to.equal(200);
    const sixth = await held(b.key, "b-refused");
    expect(sixth.status).to.equal(429);
    expect(sixth.body.detail).to.match(/at most 5 .*for all keys of the account together/);
    expect(await runsOf(h, a.userId)).to.equal(runsBefore + 2);

    const other = await h.newKey();
    expect((await held(other.key, "other")).status).to.equal(200);
  });

  it("frees a closed stream's slot", async () => {
    const { key } = await h.newKey();
    const open = [];
    for (let i = 0; i < 3; i++) open.push(await held(key, `closing-${i}`));
    expect((await held(key, "full")).status).to.equal(429);
    open[0].close();
    const again = await eventually(async () => {
      const attempt = await held(key, "after-close");
      return attempt.status === 200 ? attempt : undefined;
    }, 10_000);
    expect(again.status).to.equal(200);
  });

  it("counts a synchronous run request while it waits, and not one answered 202", async () => {
    const { key, userId } = await h.newKey();
    const waits = Array.from({ length: 3 }, (_, i) =>
      request(served.url, "POST", AGENT_COMPLETIONS, { key, body: slowAgent(`wait-${i}`, 3_000) }),
    );
    // Once the three wait (their runs exist), a fourth is refused.
    await eventually(async () => ((await runsOf(h, userId)) === 3 ? true : undefined), 10_000);
    const refused = await request(served.url, "POST", AGENT_COMPLETIONS, { key, body: slowAgent("refused", 10) });
    expect(refused.status).to.equal(429);
    expect(refused.body.detail).to.match(/open requests/);
    const asyncRun = await request(served.url, "POST", AGENT_COMPLETIONS, {
      key,
      headers: { prefer: "respond-async" },
      body: slowAgent("async", 10),
    });
    expect(asyncRun.status).to.equal(202);
    for (const res of await Promise.all(waits)) expect(res.status, JSON.stringify(res.body)).to.equal(200);
    // All three ended: the key has its slots back.
    const after = await request(served.url, "POST", AGENT_COMPLETIONS, { key, body: slowAgent("after", 10) });
    expect(after.status).to.equal(200);
  });

  it("frees a synchronous wait's slot as soon as its client leaves, though its run goes on", async () => {
    const { key, userId } = await h.newKey();
    const leaving = Array.from({ length: 3 }, (_, i) => {
      const abort = new AbortController();
      const sent = fetch(`${served.url}${AGENT_COMPLETIONS}`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify(slowAgent(`leaving-${i}`, 20_000)),
        signal: abort.signal,
      }).catch(() => undefined);
      return { abort, sent };
    });
    await eventually(async () => ((await runsOf(h, userId)) === 3 ? true : undefined), 10_000);
    expect(
      (await request(served.url, "POST", AGENT_COMPLETIONS, { key, body: slowAgent("full", 10) })).status,
    ).to.equal(429);
    for (const { abort } of leaving) abort.abort();
    await Promise.all(leaving.map(({ sent }) => sent));
    // The runs have 19 s to go; the slots are back long before.
    const again = await eventually(async () => {
      const attempt = await request(served.url, "POST", AGENT_COMPLETIONS, {
        key,
        body: slowAgent("after-leaving", 10),
      });
      return attempt.status === 200 ? attempt : undefined;
    }, 5_000);
    expect(again.status).to.equal(200);
  });

  it("answers a duplicate that asks not to wait (Idempotency-Key, Prefer: respond-async) at once, holding nothing", async () => {
    const { key, userId } = await h.newKey();
    const idempotencyKey = randomUUID();
    const body = slowAgent("idempotent-original", 5_000);
    const original = request(served.url, "POST", AGENT_COMPLETIONS, {
      key,
      headers: { "idempotency-key": idempotencyKey },
      body,
    });
    const duplicate = async () => {
      const started = performance.now();
      const res = await request(served.url, "POST", AGENT_COMPLETIONS, {
        key,
        headers: { "idempotency-key": idempotencyKey, prefer: "respond-async" },
        body,
      });
      return { res, ms: performance.now() - started };
    };
    await eventually(async () => ((await runsOf(h, userId)) === 1 ? true : undefined), 10_000);
    const many = await Promise.all(Array.from({ length: 10 }, duplicate));
    for (const { res, ms } of many) {
      expect(res.status, JSON.stringify(res.body)).to.equal(409);
      expect(res.body.code).to.equal("IDEMPOTENCY_KEY_IN_PROGRESS");
      expect(ms, "ms").to.be.below(2_000);
    }
    const answered = await original;
    expect(answered.status).to.equal(200);
    for (const { res } of many) expect(res.body.job_id).to.equal(answered.body.job_id);
  });

  it("keeps the web process's Redis connections constant with 30 streams open", async () => {
    // Two accounts of 15 streams each, on the harness's app with the default caps.
    const [one, two] = [await h.newKey(), await h.newKey()];
    const before = await redisConnections();
    const opened = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const key = i % 2 ? one.key : two.key;
        const stream = await openStream(h.baseUrl, key, `connections-${i}`, "event: start");
        streams.push(stream);
        if (stream.jobId) jobs.push({ id: stream.jobId, key });
        return stream;
      }),
    );
    for (const s of opened) expect(s.status).to.equal(200);
    const during = await redisConnections();
    expect(during - before, "Redis connections opened by 30 open streams").to.be.at.most(1);
  });
});
