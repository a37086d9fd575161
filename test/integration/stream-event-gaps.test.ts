import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { agentStreamFormat } from "../../api/runs/agent-stream";
import { runFrames } from "../../api/spine/run-stream";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { MODEL_OUTPUT_MAX_CHARS } from "../../shared/limits/outside-content";
import { findRun } from "../../shared/db/runs/run-rows";
import type { AgentRun } from "../../shared/db/entities/run.entity";
import { RunEventWriter, runEventsKey } from "../../shared/queues/run-events";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { parseSse } from "../helpers/sse";

/** The entries a run's stream holds now, and how many were ever added to it (Redis 7's `entries-added`). */
async function streamSize(h: Harness, runId: string): Promise<{ length: number; added: number }> {
  const info = (await h.deps.redis.xinfo("STREAM", runEventsKey(runId))) as unknown[];
  const field = (name: string) => Number(info[info.indexOf(name) + 1]);
  return { length: field("length"), added: field("entries-added") };
}

describe("a run's event stream loses nothing silently", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("relays a 700,000-character streamed answer whole: the text the client got is what the job kept", async () => {
    const reply = `x${" ".repeat(700_000)}y`;
    const res = await fetch(`${h.baseUrl}/v1/agent/completions`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        agent_config: { agent_name: "Long", max_tokens: 32_768, llm_args: { sim_reply: reply } },
        task: `long-${randomUUID()}`,
        stream: true,
      }),
    });
    const frames = parseSse(await res.text());
    const jobId = frames[0].data.job_id;
    const chunks = frames.filter((f) => f.event === "chunk");
    const size = await streamSize(h, jobId);
    expect(frames.at(-1)!.event, "the last frame").to.equal("done");
    expect(frames.find((f) => f.event === "end")!.data.complete).to.equal(true);
    const run = (await findRun(h.deps.ds, jobId)) as AgentRun | null;
    const kept = run!.output!.outputs[0].content as string;
    const text = chunks.map((c) => c.data.content).join("");
    // The answer was cut at its bound: the client got every character kept, and the row adds the marker.
    expect(text).to.have.length(MODEL_OUTPUT_MAX_CHARS);
    expect(kept.slice(0, MODEL_OUTPUT_MAX_CHARS) === text, "the text kept is the text sent").to.equal(true);
    expect(kept.slice(MODEL_OUTPUT_MAX_CHARS)).to.match(/^…\[truncated: [\d,]+ characters, kept the first 600,000\]$/);
    // Every entry the run wrote is still there for a reader that comes later.
    expect(size.length).to.equal(size.added);
    // Chunks are merged (about 150 entries here; 46,156 before, 20,028 of them kept).
    expect(size.added).to.be.below(1_000);
  });

  it("ends the stream with an error frame pointing to the job when entries were trimmed before it read them", async () => {
    const runId = randomUUID();
    const request = { agent_config: { agent_name: "Gappy" }, task: "t" } as AgentCompletionRequest;
    const frames = runFrames(
      h.deps,
      { runId, accountId: "gappy-account" },
      agentStreamFormat(runId, request),
    )(new AbortController().signal)[Symbol.asyncIterator]() as AsyncIterator<unknown>;
    // A writer whose stream keeps only a few entries, as one outrun by its run would.
    const writer = new RunEventWriter(h.deps.redis, runId, 5);
    writer.emit({ type: "start" });
    writer.emit({ type: "chunk", content: "first" });
    await writer.flush();
    expect((await frames.next()).value)
      .to.have.property("data")
      .that.includes({ type: "metadata" });
    expect((await frames.next()).value).to.have.property("event", "start");
    expect((await frames.next()).value).to.have.nested.property("data.content", "first");
    // The client now takes nothing while the writer runs far ahead: the process holds at most 1,000
    // entries for it (the follower's cap), and Redis trims the ones after those before it reads them.
    for (let i = 0; i < 3_000; i++) writer.emit({ type: "agent_start", agent: `a${i}` });
    writer.emit({ type: "finish", usage: {} });
    await writer.flush();
    expect((await streamSize(h, runId)).length).to.be.below(1_000);
    const ending = (await frames.next()).value as { event: string; data: Record<string, unknown> };
    expect(ending.event).to.equal("error");
    expect(ending.data).to.include({ job_id: runId });
    expect(ending.data.error).to.match(/lost/).and.include(`GET /v1/jobs/${runId}`);
    expect((await frames.next()).done, "nothing after the error frame").to.equal(true);
  });

  it("merges a burst of chunks into few numbered entries, the first written at once", async () => {
    const runId = randomUUID();
    const writer = new RunEventWriter(h.deps.redis, runId);
    for (let i = 0; i < 10_000; i++) writer.emit({ type: "chunk", content: `${i % 10}` });
    writer.emit({ type: "finish", usage: null });
    await writer.flush();
    const entries = (await h.deps.redis.xrange(runEventsKey(runId), "-", "+")).map(([, f]) => ({
      event: JSON.parse(f[1]),
      n: Number(f[3]),
    }));
    expect(entries[0].event.content, "the first chunk, alone").to.equal("0");
    expect(entries.map((e) => e.n)).to.deep.equal(entries.map((_, i) => i));
    expect(entries.length).to.be.within(3, 2 + Math.ceil(10_000 / 4_096) + 1);
    expect(entries.at(-1)!.event.type).to.equal("finish");
    const text = entries
      .slice(0, -1)
      .map((e) => e.event.content)
      .join("");
    expect(text).to.equal(Array.from({ length: 10_000 }, (_, i) => `${i % 10}`).join(""));
  });
});
