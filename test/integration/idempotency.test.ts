import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { requestHash } from "../../shared/db/idempotency-store";
import { config } from "../../shared/config";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { entriesMentioning } from "../helpers/swarm";

const PATH = "/v1/agent/completions";

describe("Idempotency-Key on /v1 POSTs", () => {
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  /** A fresh key, an agent request carrying a unique marker, and readers for what it caused. */
  async function scenario(agent: Record<string, unknown> = {}) {
    const { key, keyId } = await h.newKey();
    const marker = `idem-${randomUUID()}`;
    const body = { agent_config: { agent_name: "Idem", ...agent }, task: `Say something about ${marker}.` };
    return {
      key,
      keyId,
      body,
      post: (idempotencyKey: string, payload: unknown = body, headers: Record<string, string> = {}) =>
        request(h.baseUrl, "POST", PATH, {
          key,
          body: payload,
          headers: { "idempotency-key": idempotencyKey, ...headers },
        }),
      runCount: async () =>
        Number((await h.deps.ds.query("SELECT count(*) AS n FROM runs WHERE api_key_id = $1", [keyId]))[0].n),
      llmCalls: () => entriesMentioning(h, marker).length,
      record: async (idempotencyKey: string) =>
        (
          await h.deps.ds.query("SELECT * FROM idempotency_keys WHERE api_key_id = $1 AND key = $2", [
            keyId,
            idempotencyKey,
          ])
        )[0],
    };
  }

  it("replays the first answer for the same key and body: same job, one run, one LLM call", async () => {
    const s = await scenario();
    const first = await s.post("order-1");
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.headers.get("idempotent-replayed")).to.equal(null);

    // The same body with its keys in another order is the same request.
    const reordered = { task: s.body.task, agent_config: s.body.agent_config };
    const second = await s.post("order-1", reordered);
    expect(second.status).to.equal(200);
    expect(second.body).to.deep.equal(first.body);
    expect(Object.keys(second.body)).to.deep.equal(Object.keys(first.body));
    expect(second.headers.get("idempotent-replayed")).to.equal("true");
    expect(second.headers.get("x-ratelimit-remaining-minute"), "replays are requests too").to.equal("98");

    expect(await s.runCount()).to.equal(1);
    expect(s.llmCalls()).to.equal(1);
    const record = await s.record("order-1");
    expect(record).to.include({ run_id: first.body.job_id, response_status: 200 });
  });

  it("answers 409 IDEMPOTENCY_KEY_REUSED for the same key with another body, and runs nothing", async () => {
    const s = await scenario();
    expect((await s.post("reuse-1")).status).to.equal(200);
    const other = await s.post("reuse-1", { ...s.body, task: `${s.body.task} Differently.` });
    expect(other.status).to.equal(409);
    expect(other.body).to.include({ code: "IDEMPOTENCY_KEY_REUSED", status_code: 409 });
    expect(other.body.detail).to.be.a("string");
    expect(await s.runCount()).to.equal(1);
    expect(s.llmCalls()).to.equal(1);
  });

  it("scopes keys to the API key: another key may use the same Idempotency-Key", async () => {
    const [a, b] = [await scenario(), await scenario()];
    const first = await a.post("shared-name");
    const second = await b.post("shared-name", a.body);
    expect(first.status).to.equal(200);
    expect(second.status).to.equal(200);
    expect(second.body.job_id).to.not.equal(first.body.job_id);
  });

  it("lets simultaneous duplicates create one run; the others wait and get the same answer", async () => {
    const s = await scenario({ llm_args: { sim_latency_ms: 400 } });
    const answers = await Promise.all([s.post("burst"), s.post("burst"), s.post("burst")]);
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).to.equal(200);
    expect(new Set(answers.map((a) => a.body.job_id)).size).to.equal(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).to.have.length(2);
    for (const a of answers.slice(1)) expect(a.body).to.deep.equal(answers[0].body);
    expect(await s.runCount()).to.equal(1);
    expect(s.llmCalls()).to.equal(1);
  });

  it("makes a duplicate of a request still running wait for its answer", async () => {
    const s = await scenario({ llm_args: { sim_latency_ms: 600 } });
    const original = s.post("slow-1");
    // Send the duplicate only once the original holds the key and is still unanswered.
    await eventually(async () => {
      const record = await s.record("slow-1");
      return record && record.response_status === null ? true : undefined;
    });
    const duplicate = await s.post("slow-1");
    const first = await original;
    expect(first.status).to.equal(200);
    expect(duplicate.status).to.equal(200);
    expect(duplicate.body).to.deep.equal(first.body);
    expect(await s.runCount()).to.equal(1);
  });

  it("answers 409 IDEMPOTENCY_KEY_IN_PROGRESS when the duplicate's own wait ends before the original answers", async () => {
    const s = await scenario({ llm_args: { sim_latency_ms: 1_800 } });
    const original = s.post("long-1");
    await eventually(async () => ((await s.record("long-1")) ? true : undefined));
    const impatient = await s.post("long-1", s.body, { prefer: "wait=0.1" });
    expect(impatient.status).to.equal(409);
    expect(impatient.body).to.include({ code: "IDEMPOTENCY_KEY_IN_PROGRESS", status_code: 409 });
    expect(impatient.headers.get("x-should-retry")).to.equal("true");
    const answered = await original;
    expect(answered.status).to.equal(200);
    // The original's run was known by then: the 409 says where to read it.
    expect(impatient.body.job_id).to.equal(answered.body.job_id);
    expect(impatient.headers.get("location")).to.equal(`/v1/jobs/${answered.body.job_id}`);
    expect(await s.runCount()).to.equal(1);
  });

  it("knows the run of a request still being answered as soon as the run exists", async () => {
    const s = await scenario({ llm_args: { sim_latency_ms: 1_000 } });
    const original = s.post("early-1");
    const known = await eventually(async () => {
      const record = await s.record("early-1");
      return record?.run_id ? record : undefined;
    });
    expect(known.response_status).to.equal(null);
    expect((await original).body.job_id).to.equal(known.run_id);
  });

  it("attaches a duplicate whose original died after starting its run to that run, instead of starting another", async () => {
    const s = await scenario();
    // The run the dead original started, and the record it left unanswered.
    const started = await request(h.baseUrl, "POST", PATH, {
      key: s.key,
      body: s.body,
      headers: { prefer: "respond-async" },
    });
    await h.deps.ds.query(
      `INSERT INTO idempotency_keys (api_key_id, key, request_hash, run_id, created_at)
       VALUES ($1, 'died', $2, $3, now() - $4 * interval '1 millisecond')`,
      [s.keyId, requestHash("POST", PATH, s.body), started.body.job_id, config.http.syncWaitMs + 61_000],
    );
    const res = await s.post("died");
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.job_id).to.equal(started.body.job_id);
    expect(await s.runCount()).to.equal(1);
    expect(s.llmCalls()).to.equal(1);
    expect(await s.record("died")).to.include({ run_id: started.body.job_id, response_status: 200 });
    // Another body under that key is still another request.
    const other = await s.post("died", { ...s.body, task: `${s.body.task} Differently.` });
    expect(other.status).to.equal(409);
    expect(other.body).to.include({ code: "IDEMPOTENCY_KEY_REUSED" });
  });

  it("answers a duplicate of a request answered 504 from its run, which has ended since", async () => {
    const s = await scenario({ llm_args: { sim_latency_ms: 600 } });
    const first = await s.post("timed-out", s.body, { prefer: "wait=0.1" });
    expect(first.status).to.equal(504);
    const later = await s.post("timed-out");
    expect(later.status, JSON.stringify(later.body)).to.equal(200);
    expect(later.body.job_id).to.equal(first.body.job_id);
    expect(later.headers.get("idempotent-replayed")).to.equal("true");
    // The run's answer is kept from then on.
    expect(await s.record("timed-out")).to.include({ run_id: first.body.job_id, response_status: 200 });
    expect((await s.post("timed-out")).body).to.deep.equal(later.body);
    expect(await s.runCount()).to.equal(1);
    expect(s.llmCalls()).to.equal(1);
  });

  it("keeps no 202 as the answer of a key whose first answer was a 504: a later duplicate gets the run's answer", async () => {
    const s = await scenario({ llm_args: { sim_latency_ms: 600 } });
    const first = await s.post("timed-out-async", s.body, { prefer: "wait=0.1" });
    expect(first.status).to.equal(504);
    const queued = await s.post("timed-out-async", s.body, { prefer: "respond-async" });
    expect(queued.status).to.equal(202);
    expect(queued.body.job_id).to.equal(first.body.job_id);
    const ended = await eventually(async () => {
      const again = await s.post("timed-out-async");
      return again.status === 200 ? again : undefined;
    });
    expect(ended.body.job_id).to.equal(first.body.job_id);
    expect((await s.record("timed-out-async")).response_status).to.equal(200);
    expect(await s.runCount()).to.equal(1);
  });

  it("takes over a record left unanswered by a request that died", async () => {
    const s = await scenario();
    const hash = requestHash("POST", PATH, s.body);
    await h.deps.ds.query(
      `INSERT INTO idempotency_keys (api_key_id, key, request_hash, created_at) VALUES ($1, 'orphan', $2, now() - $3 * interval '1 millisecond')`,
      [s.keyId, hash, config.http.syncWaitMs + 61_000],
    );
    const res = await s.post("orphan");
    expect(res.status).to.equal(200);
    expect(res.headers.get("idempotent-replayed")).to.equal(null);
    expect(await s.record("orphan")).to.include({ run_id: res.body.job_id, response_status: 200 });
  });

  it("replays a failed run's 500 with its job_id rather than running it again", async () => {
    const s = await scenario({ agent_name: "Broken", llm_args: { sim_error: 400 } });
    const first = await s.post("fail-1");
    expect(first.status).to.equal(500);
    expect(first.body).to.include({ code: "LLM_CALL_FAILED" });
    const second = await s.post("fail-1");
    expect(second.status).to.equal(500);
    expect(second.body).to.deep.equal(first.body);
    expect(await s.runCount()).to.equal(1);
    expect((await s.record("fail-1")).run_id).to.equal(first.body.job_id);
  });

  it("replays a 202 with its Location header", async () => {
    const s = await scenario();
    const first = await s.post("async-1", s.body, { prefer: "respond-async" });
    expect(first.status).to.equal(202);
    const second = await s.post("async-1", s.body, { prefer: "respond-async" });
    expect(second.status).to.equal(202);
    expect(second.body).to.deep.equal(first.body);
    expect(second.headers.get("location")).to.equal(first.headers.get("location"));
    expect(second.headers.get("preference-applied")).to.equal("respond-async");
    await eventually(async () =>
      (await request(h.baseUrl, "GET", `/v1/jobs/${first.body.job_id}`, { key: s.key })).body.status === "success"
        ? true
        : undefined,
    );
    expect(await s.runCount()).to.equal(1);
  });

  it("does not run a streamed request twice: a duplicate gets 409 IDEMPOTENCY_REPLAY_UNAVAILABLE", async () => {
    const s = await scenario({ streaming_on: true });
    const first = await s.post("stream-1");
    expect(first.status).to.equal(200);
    expect(first.headers.get("content-type")).to.match(/text\/event-stream/);
    const second = await s.post("stream-1");
    expect(second.status).to.equal(409);
    expect(second.body).to.include({ code: "IDEMPOTENCY_REPLAY_UNAVAILABLE", status_code: 409 });
    expect(await s.runCount()).to.equal(1);
  });

  it("keeps no record for a request refused before any run, so the corrected body may reuse the key", async () => {
    const s = await scenario();
    const invalid = await s.post("fix-me", { agent_config: { max_loops: 0 }, task: "x" });
    expect(invalid.status).to.equal(422);
    expect(await s.record("fix-me")).to.equal(undefined);
    const fixed = await s.post("fix-me");
    expect(fixed.status).to.equal(200);
    expect(await s.runCount()).to.equal(1);
  });

  it("treats a record older than 24 hours as absent and replaces it", async () => {
    const s = await scenario();
    const first = await s.post("old-1");
    expect(first.status).to.equal(200);
    await h.deps.ds.query(
      "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE api_key_id = $1",
      [s.keyId],
    );
    const other = await s.post("old-1", { ...s.body, task: `${s.body.task} Again.` });
    expect(other.status).to.equal(200);
    expect(other.body.job_id).to.not.equal(first.body.job_id);
    expect(other.headers.get("idempotent-replayed")).to.equal(null);
    expect(await s.runCount()).to.equal(2);
    expect((await s.record("old-1")).run_id).to.equal(other.body.job_id);
  });

  it("refuses a malformed Idempotency-Key with 400 before anything runs", async () => {
    const s = await scenario();
    for (const bad of ["", "x".repeat(256), "tab\there"]) {
      const res = await s.post(bad);
      expect(res.status, JSON.stringify(bad)).to.equal(400);
      expect(res.body).to.include({ code: "INVALID_IDEMPOTENCY_KEY", status_code: 400 });
    }
    expect(await s.runCount()).to.equal(0);
    expect((await s.post("x".repeat(255))).status).to.equal(200);
  });

  it("ignores the header on requests other than POST", async () => {
    const { key } = await h.newKey();
    const res = await request(h.baseUrl, "GET", "/v1/rate/limits", {
      key,
      headers: { "idempotency-key": "tab\there" },
    });
    expect(res.status).to.equal(200);
  });
});
