import { expect } from "chai";
import { config } from "../../shared/config";
import { rememberUnanswered, takeUnanswered } from "../../shared/queues/unanswered-attempts";
import { freshAccount, type Account } from "../helpers/client-attempts";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { parseSse } from "../helpers/sse";
import { callsMentioning, uniqueMarker } from "../helpers/swarm";

const AGENT_PATH = "/v1/agent/completions";

/**
 * What counts as a retry, over plain HTTP: a request saying it is one (`X-Stainless-Retry-Count`
 * ≥ 1) with the same key, path, body and client as an earlier attempt whose answer did not reach
 * its client as a success. Anything else is a request of its own, and starts its own run.
 */
describe("retried requests: one intent, one run", function () {
  this.timeout(30_000);
  let h: Harness;

  before(async () => {
    h = await harness();
  });

  /** An agent request that takes `latencyMs` to answer, with a marker of its own. */
  function slowAgent(latencyMs: number, extra: Record<string, unknown> = {}) {
    const marker = uniqueMarker("retry");
    return {
      marker,
      body: {
        agent_config: {
          agent_name: "Slow",
          model_name: "gpt-4o-mini",
          llm_args: { sim_latency_ms: latencyMs },
          ...extra,
        },
        task: `Say something about ${marker}.`,
      },
    };
  }

  /** Posts as attempt `retry` of a client (`X-Stainless-Retry-Count`), with any other headers. */
  const attempt = (
    account: Account,
    retry: number,
    body: unknown,
    headers: Record<string, string> = {},
    path = AGENT_PATH,
  ) =>
    request(h.baseUrl, "POST", path, {
      key: account.key,
      body,
      headers: { "x-stainless-retry-count": String(retry), "user-agent": "retry-test/1.0", ...headers },
    });

  /** A short `Prefer: wait`, so an attempt is answered 504 while its run goes on. */
  const SHORT_WAIT = { prefer: "wait=0.2" };

  it("two identical requests without a retry header are two runs; each retry then takes one of them", async () => {
    const account = await freshAccount(h);
    const { body, marker } = slowAgent(1_500);
    const [first, second] = await Promise.all([
      attempt(account, 0, body, SHORT_WAIT),
      attempt(account, 0, body, SHORT_WAIT),
    ]);
    for (const res of [first, second]) {
      expect(res.status, JSON.stringify(res.body)).to.equal(504);
      expect(res.headers.get("x-should-retry")).to.equal("true");
    }
    expect(first.body.job_id).to.not.equal(second.body.job_id);

    const retries = await Promise.all([attempt(account, 1, body), attempt(account, 1, body)]);
    for (const res of retries) expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(retries.map((r) => r.body.job_id).sort()).to.deep.equal([first.body.job_id, second.body.job_id].sort());
    expect(await account.runs()).to.have.length(2);
    expect(await account.charges()).to.equal(2);
    expect(callsMentioning(h, marker)).to.have.length(2);
  });

  it("a retry header on another body, or from another client, is a new run", async () => {
    const account = await freshAccount(h);
    const { body } = slowAgent(800);
    const first = await attempt(account, 0, body, SHORT_WAIT);
    expect(first.status).to.equal(504);

    const otherBody = await attempt(account, 1, { ...body, task: `${body.task} Differently.` });
    expect(otherBody.status).to.equal(200);
    expect(otherBody.body.job_id).to.not.equal(first.body.job_id);
    const otherClient = await attempt(account, 1, body, { "user-agent": "another-program/2.0" });
    expect(otherClient.status).to.equal(200);
    expect(otherClient.body.job_id).to.not.equal(first.body.job_id);

    const retry = await attempt(account, 1, body);
    expect(retry.status).to.equal(200);
    expect(retry.body.job_id).to.equal(first.body.job_id);
    expect(await account.runs()).to.have.length(3);
  });

  it("a retry of a failed run gets its failure again, even from a client that retries regardless", async () => {
    const account = await freshAccount(h);
    const body = { agent_config: { agent_name: "Broken", llm_args: { sim_error: 400 } }, task: "Fail, please." };
    const first = await attempt(account, 0, body);
    expect(first.status).to.equal(500);
    expect(first.headers.get("x-should-retry")).to.equal("false");
    const retry = await attempt(account, 1, body);
    expect(retry.status).to.equal(500);
    expect(retry.body).to.deep.equal(first.body);
    expect(await account.runs()).to.have.length(1);
  });

  it("counts an attaching retry against the rate limits, like the first attempt", async () => {
    const account = await freshAccount(h);
    const { body } = slowAgent(600);
    const first = await attempt(account, 0, body, SHORT_WAIT);
    const retry = await attempt(account, 1, body);
    expect(retry.body.job_id).to.equal(first.body.job_id);
    const before = Number(first.headers.get("x-ratelimit-remaining-minute"));
    expect(Number(retry.headers.get("x-ratelimit-remaining-minute"))).to.equal(before - 1);
  });

  it("a dropped stream's retry streams the same run from its start", async () => {
    const account = await freshAccount(h);
    const { body, marker } = slowAgent(1_000, { streaming_on: true });
    const dropped = new AbortController();
    const res = await fetch(`${h.baseUrl}${AGENT_PATH}`, {
      method: "POST",
      headers: { "x-api-key": account.key, "content-type": "application/json", "x-stainless-retry-count": "0" },
      body: JSON.stringify(body),
      signal: dropped.signal,
    });
    expect(res.headers.get("content-type")).to.match(/text\/event-stream/);
    // Read up to the metadata frame (it names the job), then drop the connection.
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
    const jobId = parseSse(text)[0].data.job_id;
    dropped.abort();
    // An SDK retries after a back-off; this one waits until the service has seen its client leave.
    await eventually(async () =>
      (await h.deps.redis.keys(`${config.queue.prefix}:unanswered:${account.keyId}:*`)).length > 0 ? true : undefined,
    );

    const retry = await fetch(`${h.baseUrl}${AGENT_PATH}`, {
      method: "POST",
      headers: { "x-api-key": account.key, "content-type": "application/json", "x-stainless-retry-count": "1" },
      body: JSON.stringify(body),
    });
    const frames = parseSse(await retry.text());
    expect(frames[0].data.job_id).to.equal(jobId);
    expect(frames.map((f) => f.event)).to.include.members(["start", "chunk", "end", "done"]);
    expect(await account.runs()).to.have.length(1);
    expect(callsMentioning(h, marker)).to.have.length(1);
  });

  it("a retried swarm batch answers from the first attempt's batch, every slot in its place", async () => {
    const account = await freshAccount(h);
    const marker = uniqueMarker("swarm-batch");
    const swarm = (n: number) => ({
      name: `Swarm ${n}`,
      swarm_type: "SequentialWorkflow",
      agents: [{ agent_name: `Agent${n}`, model_name: "gpt-4o-mini", llm_args: { sim_latency_ms: 800 } }],
      task: `Batch item ${n} about ${marker}.`,
    });
    const body = [swarm(1), { swarm_type: "NoSuchType" }, swarm(2)];
    const first = await attempt(account, 0, body, SHORT_WAIT, "/v1/swarm/batch/completions");
    expect(first.status, JSON.stringify(first.body)).to.equal(504);
    const retry = await attempt(account, 1, body, {}, "/v1/swarm/batch/completions");
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body.map((slot: { status: string }) => slot.status)).to.deep.equal(["success", "error", "success"]);
    const runs = await account.runs();
    expect(runs.filter((r) => r.parent_id === null).map((r) => r.id)).to.deep.equal([first.body.job_id]);
    expect(runs).to.have.length(3);
    expect(callsMentioning(h, marker)).to.have.length(2);
  });

  it("answers a request whose client announced its time-out before that time-out, naming the job", async () => {
    const account = await freshAccount(h);
    const { body } = slowAgent(2_500);
    const started = Date.now();
    const res = await attempt(account, 0, body, { "x-stainless-timeout": "2" });
    const took = Date.now() - started;
    expect(res.status).to.equal(504);
    expect(took).to.be.below(2_000);
    expect(res.body).to.include({ code: "RUN_TIMEOUT" });
    expect(res.headers.get("location")).to.equal(`/v1/jobs/${res.body.job_id}`);
    await eventually(async () =>
      (await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key: account.key })).body.status === "success"
        ? true
        : undefined,
    );
  });

  it("answers a retry only from an attempt within its window, however often the request was sent", async () => {
    const who = { apiKeyId: "key", accountId: "account", fingerprint: uniqueMarker("fingerprint") };
    const past = Date.now() - 10 * 60_000;
    // Two attempts remembered ten minutes ago, one now: the list's own expiry was renewed by the last.
    await rememberUnanswered(h.deps.redis, who, { runId: "old-1" }, past);
    await rememberUnanswered(h.deps.redis, who, { runId: "old-2" }, past);
    await rememberUnanswered(h.deps.redis, who, { runId: "recent" });
    expect(await takeUnanswered(h.deps.redis, who)).to.deep.equal({ runId: "recent" });
    expect(await takeUnanswered(h.deps.redis, who)).to.equal(null);
  });
});
