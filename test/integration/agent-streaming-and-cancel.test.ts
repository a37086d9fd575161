import { expect } from "chai";
import { findRun } from "../../shared/db/runs/run-rows";
import type { AgentRun } from "../../shared/db/entities/run.entity";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { parseSse } from "../helpers/sse";

const AGENT_COMPLETIONS = "/v1/agent/completions";

/** The number of the run's last event (its `finish`): one past the start and each chunk event. */
const finishEventNumber = (frames: { event: string }[]) => frames.filter((f) => f.event === "chunk").length + 1;

describe("agent completion streaming and cancellation", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  async function stream(body: unknown) {
    const res = await fetch(`${h.baseUrl}${AGENT_COMPLETIONS}`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get("content-type"), frames: parseSse(await res.text()) };
  }

  it("streams the documented frames in order, with the tokens and the usage", async () => {
    const marker = `stream-${Date.now()}`;
    const res = await stream({
      agent_config: { agent_name: "Streamer", description: "d", streaming_on: true },
      task: marker,
    });
    expect(res.status).to.equal(200);
    expect(res.type).to.match(/^text\/event-stream/);
    const names = res.frames.map((f) => f.event);
    expect(names[0]).to.equal("message");
    expect(res.frames[0].data).to.include({
      success: true,
      name: "Streamer",
      description: "d",
      temperature: 0.5, // none given: the hosted default, which the call was sent
      stream: true,
      type: "metadata",
    });
    const jobId = res.frames[0].data.job_id;
    // Each frame names its place in the run's record: the metadata, then event n's kth frame.
    const ids = res.frames.map((f) => f.id);
    expect(ids[0]).to.equal(`${jobId}:meta`);
    expect(ids[1]).to.equal(`${jobId}:0.0`);
    expect(ids.slice(-3)).to.deep.equal([0, 1, 2].map((k) => `${jobId}:${finishEventNumber(res.frames)}.${k}`));
    expect(new Set(ids).size).to.equal(ids.length);
    expect(names[1]).to.equal("start");
    const chunks = res.frames.filter((f) => f.event === "chunk");
    expect(chunks.length).to.be.greaterThan(1);
    expect(names.slice(-3)).to.deep.equal(["usage", "end", "done"]);
    expect(names.slice(2, 2 + chunks.length).every((n) => n === "chunk")).to.equal(true);

    const run = (await findRun(h.deps.ds, jobId)) as AgentRun | null;
    const text = chunks.map((c) => c.data.content).join("");
    expect(text).to.equal(run?.output?.outputs[0].content);
    const usage = res.frames.find((f) => f.event === "usage")!.data;
    expect(usage.output_tokens).to.be.greaterThan(0);
    expect(usage).to.deep.equal(run?.usage);
    expect(res.frames.find((f) => f.event === "end")!.data).to.include({ job_id: jobId, complete: true });
    const [sent] = h.sim.journal
      .filter((e: any) => JSON.stringify(e.body.messages).includes(marker))
      .map((e: any) => e.body);
    expect(sent.stream).to.equal(true);
    expect(sent.stream_options).to.deep.equal({ include_usage: true });
    expect(sent.temperature).to.equal(0.5);
  });

  it("streams with top-level stream: true too, and ends with one error frame when the run fails", async () => {
    const res = await stream({
      agent_config: { agent_name: "Broken", llm_args: { sim_error: 400 } },
      task: "x",
      stream: true,
    });
    expect(res.status).to.equal(200);
    const names = res.frames.map((f) => f.event);
    expect(names.filter((n) => n === "error")).to.have.length(1);
    expect(names.at(-1)).to.equal("error");
    expect(names).to.not.include("end");
    expect(res.frames.at(-1)!.data.error).to.match(/HTTP 400/);
  });

  it("cancels a running run within a second, aborting its LLM call, and keeps it cancelled", async () => {
    const accepted = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      headers: { prefer: "respond-async" },
      body: {
        agent_config: { agent_name: "Long", llm_args: { sim_latency_ms: 30_000 } },
        task: `cancel-${Date.now()}`,
      },
    });
    const jobId = accepted.body.job_id;
    await eventually(async () => ((await findRun(h.deps.ds, jobId))?.status === "running" ? true : undefined));
    const sentAt = Date.now();
    const cancelled = await request(h.baseUrl, "DELETE", `/v1/jobs/${jobId}`, { key });
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body).to.deep.equal({ job_id: jobId, status: "cancelled" });

    // The worker lets go of the job promptly: its in-flight call was aborted, not waited out.
    const job = await h.deps.queues.shards[0].agent.getJob(jobId);
    await eventually(async () => ((await job!.getState()) === "completed" ? true : undefined), 5_000, 20);
    expect(Date.now() - sentAt).to.be.lessThan(1_000 + 500);
    const run = await findRun(h.deps.ds, jobId);
    expect(run?.status).to.equal("cancelled");
    const read = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
    expect(read.body.status).to.equal("cancelled");

    const again = await request(h.baseUrl, "DELETE", `/v1/jobs/${jobId}`, { key });
    expect(again.status).to.equal(409);
    expect(again.body.code).to.equal("JOB_FINISHED");
    const stranger = await h.newKey();
    expect((await request(h.baseUrl, "DELETE", `/v1/jobs/${jobId}`, { key: stranger.key })).status).to.equal(404);
  });

  it("answers a waiting synchronous request with 409 when its run is cancelled", async () => {
    const marker = `sync-cancel-${Date.now()}`;
    const pending = request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { agent_name: "Waiter", llm_args: { sim_latency_ms: 30_000 } }, task: marker },
    });
    const runId = await eventually(async () => {
      const rows = await h.deps.ds.query("SELECT id FROM runs WHERE request->>'task' = $1 AND status = 'running'", [
        marker,
      ]);
      return rows[0]?.id as string | undefined;
    });
    await request(h.baseUrl, "DELETE", `/v1/jobs/${runId}`, { key });
    const res = await pending;
    expect(res.status).to.equal(409);
    expect(res.body).to.include({ code: "RUN_CANCELLED", job_id: runId });
  });
});
