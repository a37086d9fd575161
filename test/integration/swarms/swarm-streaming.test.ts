import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { parseSse, type SseFrame } from "../../helpers/sse";
import { agent, callsMentioning, uniqueMarker } from "../../helpers/swarm";

const SWARM_COMPLETIONS = "/v1/swarm/completions";

describe("swarm completion streaming (stream: true)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  async function stream(body: Record<string, unknown>) {
    const res = await fetch(`${h.baseUrl}${SWARM_COMPLETIONS}`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ ...body, stream: true }),
    });
    return { status: res.status, type: res.headers.get("content-type"), frames: parseSse(await res.text()) };
  }

  /** Per agent, the text of its chunks in arrival order. */
  function chunkText(frames: SseFrame[]): Map<string, string> {
    const text = new Map<string, string>();
    for (const f of frames.filter((f) => f.event === "chunk"))
      text.set(f.data.agent, (text.get(f.data.agent) ?? "") + f.data.content);
    return text;
  }

  async function storedJob(jobId: string) {
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
    expect(job.status).to.equal(200);
    expect(job.body.status).to.equal("success");
    return job.body;
  }

  it("SequentialWorkflow: metadata, start, then agent_start / chunk… / agent_end per agent in order, then usage and end", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("swarm-stream");
    const res = await stream({
      name: "Streamers",
      swarm_type: "SequentialWorkflow",
      agents: [agent("Opener"), agent("Closer")],
      task: marker,
    });
    expect(res.status).to.equal(200);
    expect(res.type).to.match(/^text\/event-stream/);

    const [meta] = res.frames;
    expect(meta.event).to.equal("message");
    expect(meta.data).to.include({ swarm_name: "Streamers", swarm_type: "SequentialWorkflow", number_of_agents: 2 });
    expect(meta.data.job_id).to.be.a("string");

    // The exact frame sequence, chunks collapsed.
    const names = res.frames
      .slice(1)
      .map((f) =>
        f.event === "chunk"
          ? `chunk:${f.data.agent}`
          : f.event === "agent_start" || f.event === "agent_end"
            ? `${f.event}:${f.data.agent}`
            : f.event,
      );
    const collapsed = names.filter((n, i) => !(n.startsWith("chunk:") && names[i - 1] === n));
    expect(collapsed).to.deep.equal([
      "start",
      "agent_start:Opener",
      "chunk:Opener",
      "agent_end:Opener",
      "agent_start:Closer",
      "chunk:Closer",
      "agent_end:Closer",
      "usage",
      "end",
    ]);
    expect(
      res.frames.filter((f) => f.event === "chunk" && f.data.agent === "Opener").length,
      "real token streaming: several chunks",
    ).to.be.greaterThan(1);
    for (const f of res.frames.filter((f) => f.event === "chunk")) expect(f.data.content).to.be.a("string");

    const job = await storedJob(meta.data.job_id);
    expect(job.output.map((t: any) => t.role)).to.deep.equal(["Opener", "Closer"]);
    const text = chunkText(res.frames);
    expect(text.get("Opener")).to.equal(job.output[0].content);
    expect(text.get("Closer")).to.equal(job.output[1].content);

    const usage = res.frames.find((f) => f.event === "usage")!.data;
    expect(usage.output_tokens).to.be.greaterThan(0);
    expect(usage).to.deep.equal(job.usage);
    const end = res.frames.at(-1)!;
    expect(end.event).to.equal("end");
    expect(end.data.status).to.equal("success");
    expect(end.data.execution_time).to.be.a("number").and.at.least(0);

    // The agents' LLM calls really streamed.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(2);
    for (const call of calls) expect(call.stream).to.equal(true);
  });

  it("ConcurrentWorkflow: every chunk carries its agent, and each agent's chunks concatenate to its turn in the stored output", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("concurrent-stream");
    const names = ["North", "South", "East"];
    // Latency spreads each reply's chunks over time, so the agents' streams interleave.
    const res = await stream({
      swarm_type: "ConcurrentWorkflow",
      max_loops: 1,
      agents: names.map((n, i) => agent(n, { llm_args: { sim_latency_ms: 300 + 100 * i } })),
      task: marker,
    });
    expect(res.status).to.equal(200);
    const meta = res.frames[0];
    expect(meta.data).to.include({ swarm_type: "ConcurrentWorkflow", number_of_agents: 3 });

    const chunks = res.frames.filter((f) => f.event === "chunk");
    expect(chunks.length).to.be.greaterThan(names.length);
    for (const c of chunks) expect(names, JSON.stringify(c.data)).to.include(c.data.agent);

    // Each agent's chunks sit between its own agent_start and agent_end.
    const events = res.frames.map((f) => `${f.event}:${f.data?.agent ?? ""}`);
    for (const name of names) {
      const start = events.indexOf(`agent_start:${name}`);
      const end = events.indexOf(`agent_end:${name}`);
      expect(start, `agent_start of ${name}`).to.be.at.least(0);
      expect(end, `agent_end of ${name}`).to.be.greaterThan(start);
      const own = events.map((e, i) => (e === `chunk:${name}` ? i : -1)).filter((i) => i >= 0);
      expect(own.length, `chunks of ${name}`).to.be.greaterThan(0);
      expect(Math.min(...own)).to.be.greaterThan(start);
      expect(Math.max(...own)).to.be.lessThan(end);
    }
    expect(res.frames.slice(-2).map((f) => f.event)).to.deep.equal(["usage", "end"]);

    const job = await storedJob(meta.data.job_id);
    expect(job.output.map((t: any) => t.role)).to.deep.equal(names);
    const text = chunkText(res.frames);
    job.output.forEach((turn: any) => expect(text.get(turn.role), `chunks of ${turn.role}`).to.equal(turn.content));
  });

  it("ends with exactly one error frame naming the agent when an agent fails", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("stream-fail");
    const res = await stream({
      swarm_type: "SequentialWorkflow",
      agents: [agent("Fine"), agent("Faulty", { llm_args: { sim_error: 400 } })],
      task: marker,
    });
    expect(res.status).to.equal(200);
    const names = res.frames.map((f) => f.event);
    expect(names.filter((n) => n === "error")).to.have.length(1);
    expect(names.at(-1)).to.equal("error");
    expect(names).to.not.include("end");
    const error = res.frames.at(-1)!.data;
    expect(error.error).to.be.a("string").and.include("Faulty");
    expect(error.timestamp).to.be.a("string");
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.frames[0].data.job_id}`, { key });
    expect(job.body.status).to.equal("failed");
  });
});
