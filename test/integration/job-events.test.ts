import { request as httpRequest } from "node:http";
import { expect } from "chai";
import { config } from "../../shared/config";
import { findRun } from "../../shared/db/runs/run-rows";
import { RunEventWriter, runEventsKey } from "../../shared/queues/run-events";
import { accountPrefix } from "../../shared/queues/shards";
import { agentRequest, createRun } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { SseReader, type SseFrame } from "../helpers/sse";

/** A streamed agent whose answer comes in many chunks over about a second and a half. */
const slowAgent = (marker: string) => ({
  agent_config: { agent_name: "Resumable", llm_args: { sim_latency_ms: 1_500 } },
  task: marker,
  stream: true,
});

describe("GET /v1/jobs/{job_id}/events: joining and resuming a run's stream", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  let userId: string;
  let keyId: string;
  before(async () => {
    h = await harness();
    ({ key, userId, keyId } = await h.newKey());
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${h.baseUrl}${path}`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const events = (jobId: string, headers: Record<string, string> = {}, query = "", apiKey = key) =>
    fetch(`${h.baseUrl}/v1/jobs/${jobId}/events${query}`, { headers: { "x-api-key": apiKey, ...headers } });
  const allFrames = async (res: Response) => new SseReader(res).rest();
  const ids = (frames: SseFrame[]) => frames.map((f) => f.id);

  /** Reads `count` frames of a stream, then hangs up: a client whose connection dropped. */
  async function readThenDrop(res: Response, count: number): Promise<SseFrame[]> {
    const reader = new SseReader(res);
    const seen: SseFrame[] = [];
    while (seen.length < count) seen.push((await reader.next())!);
    await reader.close();
    return seen;
  }

  /** A client that drops mid-stream and resumes gets exactly what it missed: the whole stream, once. */
  async function dropAndResume(res: Response, dropAfter: number) {
    const seen = await readThenDrop(res, dropAfter);
    const jobId = seen[0].data.job_id as string;
    const resumed = await allFrames(await events(jobId, { "last-event-id": seen.at(-1)!.id! }));
    const whole = await allFrames(await events(jobId));
    return { jobId, seen, resumed, whole };
  }

  it("an agent stream: a client that drops and resumes with Last-Event-ID gets exactly the frames it missed", async () => {
    const { jobId, seen, resumed, whole } = await dropAndResume(
      await post("/v1/agent/completions", slowAgent(`resume-${Date.now()}`)),
      4,
    );
    expect(ids([...seen, ...resumed])).to.deep.equal(ids(whole));
    expect(new Set(ids(whole)).size).to.equal(whole.length);
    expect(whole.map((f) => f.event).slice(-3)).to.deep.equal(["usage", "end", "done"]);
    const run = await findRun(h.deps.ds, jobId);
    const text = [...seen, ...resumed].filter((f) => f.event === "chunk").map((f) => f.data.content);
    expect(text.join("")).to.equal((run as { output: { outputs: { content: string }[] } }).output.outputs[0].content);
    expect(resumed.length, "the resumed part").to.be.above(2);
  });

  it("a swarm stream: the same, with each agent's frames", async () => {
    const agent = (name: string) => ({ agent_name: name, llm_args: { sim_latency_ms: 800 } });
    const { seen, resumed, whole } = await dropAndResume(
      await post("/v1/swarm/completions", {
        name: "Resumed",
        swarm_type: "SequentialWorkflow",
        agents: [agent("First"), agent("Second")],
        task: `swarm-resume-${Date.now()}`,
        stream: true,
      }),
      3,
    );
    expect(ids([...seen, ...resumed])).to.deep.equal(ids(whole));
    const names = whole.map((f) => f.event);
    expect(names.filter((n) => n === "agent_start")).to.have.length(2);
    expect(names.slice(-2)).to.deep.equal(["usage", "end"]);
  });

  /** Starts a run with `Prefer: respond-async`: answered 202 at once, never streamed. */
  async function startAsync(path: string, body: unknown): Promise<string> {
    const started = await post(path, body, { prefer: "respond-async" });
    expect(started.status).to.equal(202);
    const answer = (await started.json()) as { job_id: string };
    return answer.job_id;
  }
  const sequentialSwarm = (task: string, latencyMs = 700) => ({
    name: "Quiet",
    swarm_type: "SequentialWorkflow",
    agents: ["First", "Second", "Third"].map((agent_name) => ({ agent_name, llm_args: { sim_latency_ms: latencyMs } })),
    task,
  });
  const statusOf = async (jobId: string) =>
    ((await (await fetch(`${h.baseUrl}/v1/jobs/${jobId}`, { headers: { "x-api-key": key } })).json()) as any).status;

  it("joins a run not streamed mid-run and follows it to its end: its steps as they are stored, then its ending", async () => {
    const jobId = await startAsync("/v1/swarm/completions", sequentialSwarm(`async-${Date.now()}`));
    const reader = new SseReader(await events(jobId));
    const first = [(await reader.next())!, (await reader.next())!];
    // Joined while the run goes on: its first step came live, before the run ended.
    expect(first[1].event).to.equal("step");
    expect(await statusOf(jobId)).to.equal("running");
    const frames = [...first, ...(await reader.rest())];
    expect(frames.map((f) => f.event)).to.deep.equal(["message", "step", "step", "step", "usage", "end"]);
    expect(frames[0].data).to.include({ job_id: jobId, type: "metadata" });
    expect(frames.slice(1, 4).map((f) => f.data.agent)).to.deep.equal(["First", "Second", "Third"]);
    expect(frames[1].data).to.include.all.keys("role", "model", "input_tokens", "output_tokens", "cost", "finished_at");
    expect(frames[1].data).to.not.have.any.keys("input", "output");
    expect(ids(frames)).to.deep.equal([
      `${jobId}:meta`,
      ...["s0.0", "s1.0", "s2.0", "s3.0", "s3.1"].map((p) => `${jobId}:${p}`),
    ]);
    // A run not streamed writes no event record to Redis: nobody pays for a reader who may not come.
    expect(await h.deps.redis.exists(runEventsKey(jobId, accountPrefix(userId)))).to.equal(0);

    // After the run: the same frames with the same ids, and a resume after any of them gets the rest.
    const replay = await allFrames(await events(jobId));
    expect(ids(replay)).to.deep.equal(ids(frames));
    const rest = await allFrames(await events(jobId, { "last-event-id": frames[2].id! }));
    expect(ids(rest)).to.deep.equal(ids(frames.slice(3)));
    // An id of a Redis record this run never had is not one of its stream's.
    const res = await events(jobId, { "last-event-id": `${jobId}:0.0` });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.include({ code: "INVALID_LAST_EVENT_ID" });
  });

  it("follows runs not streamed with one shared poll for every client of the process, stopping when none watch", async () => {
    const runs = await Promise.all(
      [0, 1].map((i) => startAsync("/v1/swarm/completions", sequentialSwarm(`poll-${i}-${Date.now()}`, 500))),
    );
    const pollsBefore = h.deps.runProgress.polls;
    const started = Date.now();
    // Three clients on two runs.
    const streams = await Promise.all([runs[0], runs[0], runs[1]].map(async (jobId) => allFrames(await events(jobId))));
    const elapsed = Date.now() - started;
    for (const frames of streams) expect(frames.map((f) => f.event).slice(-2)).to.deep.equal(["usage", "end"]);
    expect(ids(streams[0])).to.deep.equal(ids(streams[1]));
    // One query a poll for all of them (1 s apart), not one per client or per run.
    const polls = h.deps.runProgress.polls - pollsBefore;
    expect(polls, `${polls} polls in ${elapsed} ms`).to.be.at.most(Math.ceil(elapsed / config.http.eventsPollMs) + 1);
    expect(h.deps.runProgress.size).to.equal(0);
  });

  it("joins a batch item by item, each item's stream told from its steps", async () => {
    const batchId = await startAsync(
      "/v1/agent/batch/completions",
      [0, 1].map((i) => ({
        agent_config: { agent_name: `Item${i}`, llm_args: { sim_latency_ms: 400 } },
        task: `batch-${i}-${Date.now()}`,
      })),
    );
    const list = (await (
      await fetch(`${h.baseUrl}/v1/jobs?parent=${batchId}`, { headers: { "x-api-key": key } })
    ).json()) as { jobs: { job_id: string }[] };
    expect(list.jobs).to.have.length(2);
    for (const { job_id } of list.jobs) {
      const frames = await allFrames(await events(job_id));
      expect(frames.map((f) => f.event)).to.deep.equal(["message", "step", "chunk", "usage", "end", "done"]);
      expect(frames.every((f) => f.id!.startsWith(`${job_id}:`))).to.equal(true);
    }
    const parent = await events(batchId);
    expect(parent.status).to.equal(409);
    expect(await parent.json()).to.include({ code: "NO_EVENT_STREAM", job_id: batchId });
  });

  it("replays from the stored run once the Redis record is gone, with ids of its own that resume too", async () => {
    const done = await allFrames(await post("/v1/agent/completions", slowAgent(`expired-${Date.now()}`)));
    const jobId = done[0].data.job_id as string;
    await h.deps.redis.del(runEventsKey(jobId, accountPrefix(userId)));
    const stored = await allFrames(await events(jobId));
    // The stored record: the run's step (its one call), then its ending told from the row.
    expect(stored.map((f) => f.event)).to.deep.equal(["message", "step", "chunk", "usage", "end", "done"]);
    expect(ids(stored).slice(1)).to.deep.equal(["s0.0", "s1.0", "s2.0", "s2.1", "s2.2"].map((p) => `${jobId}:${p}`));
    const text = done.filter((f) => f.event === "chunk").map((f) => f.data.content);
    expect(stored[2].data.content).to.equal(text.join(""));
    const rest = await allFrames(await events(jobId, {}, `?last_event_id=${encodeURIComponent(stored[2].id!)}`));
    expect(ids(rest)).to.deep.equal(ids(stored.slice(3)));
    // An id of the expired record cannot be placed in the stored one: refused, not replayed twice.
    const expired = await events(jobId, { "last-event-id": done[3].id! });
    expect(expired.status).to.equal(410);
    expect(await expired.json()).to.include({ code: "EVENTS_EXPIRED", job_id: jobId });
  });

  it("refuses a malformed or unknown Last-Event-ID with 400, and another account's job with 404", async () => {
    const done = await allFrames(
      await post("/v1/agent/completions", {
        agent_config: { agent_name: "Ids" },
        task: `ids-${Date.now()}`,
        stream: true,
      }),
    );
    const jobId = done[0].data.job_id as string;
    const other = await createRun(h.deps.ds, {
      kind: "agent",
      status: "succeeded",
      owner: { apiKeyId: keyId, userId },
    });
    for (const bad of ["garbage", `${jobId}:x.1`, `${jobId}:99.0`, `${jobId}:s9.0`, `${other.id}:0.0`, `${jobId}:1`]) {
      const res = await events(jobId, { "last-event-id": bad });
      expect(res.status, bad).to.equal(400);
      expect(await res.json()).to.include({ code: "INVALID_LAST_EVENT_ID" });
    }
    const stranger = await h.newKey();
    const res = await events(jobId, {}, "", stranger.key);
    expect(res.status).to.equal(404);
    expect(await res.json()).to.include({ code: "NOT_FOUND" });
    expect((await events("not-a-uuid")).status).to.equal(404);
  });

  it("has no gap and no duplicate at the seam: events written while the replay is sent follow it", async () => {
    // A run started as a stream: its worker writes its events to Redis.
    const run = await createRun(h.deps.ds, {
      kind: "agent",
      status: "running",
      owner: { apiKeyId: keyId, userId },
      request: { ...agentRequest(), stream: true },
    });
    const writer = new RunEventWriter(h.deps.redis, run.id, undefined, accountPrefix(userId));
    // Events that each make one frame and are never merged: more than one read of the follower
    // takes (200), so the replay is still going when the writes below land.
    for (let i = 0; i < 451; i++) writer.emit({ type: "start" });
    await writer.flush();
    const reader = new SseReader(await events(run.id, { "last-event-id": `${run.id}:10.0` }));
    const frames: SseFrame[] = [];
    for (let i = 0; i < 20; i++) frames.push((await reader.next())!);
    for (let i = 0; i < 300; i++) writer.emit({ type: "start" });
    writer.emit({ type: "finish", usage: {} });
    await writer.flush();
    frames.push(...(await reader.rest()));
    const expected = [
      ...Array.from({ length: 740 }, (_, i) => `${run.id}:${11 + i}.0`),
      ...[0, 1, 2].map((k) => `${run.id}:751.${k}`),
    ];
    expect(ids(frames)).to.deep.equal(expected);
  });

  it("sends `: ping` on a quiet stream and 102 Processing while a synchronous request waits", async () => {
    const reader = new SseReader(
      await post("/v1/agent/completions", {
        agent_config: { agent_name: "Slow", llm_args: { sim_latency_ms: 2_500 } },
        task: `ping-${Date.now()}`,
        stream: true,
      }),
    );
    await reader.rest();
    expect(reader.comments).to.include(": ping");

    const url = new URL(`${h.baseUrl}/v1/agent/completions`);
    const informational: number[] = [];
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" } },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        },
      );
      req.on("information", (info) => informational.push(info.statusCode));
      req.on("error", reject);
      req.end(
        JSON.stringify({
          agent_config: { agent_name: "Slow", llm_args: { sim_latency_ms: 1_500 } },
          task: `processing-${Date.now()}`,
        }),
      );
    });
    expect(status).to.equal(200);
    expect(informational).to.include(102);
  });
});
