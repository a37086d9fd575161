import { expect } from "chai";
import { findRun } from "../../shared/db/runs/run-rows";
import { countTokens } from "../../shared/llm/tokens";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { expectPoolMatchesLedger, runLedger } from "../helpers/ledger";
import { parseSse, type SseFrame } from "../helpers/sse";

const AGENT_COMPLETIONS = "/v1/agent/completions";

/** A reply long enough to arrive as dozens of chunks. */
const LONG_REPLY = Array.from({ length: 240 }, (_, i) => `word${i}`).join(" ");

/** Reads a stream frame by frame, handing each to `onFrame` as it arrives; resolves with them all. */
async function readStream(res: Response, onFrame: (frame: SseFrame, all: SseFrame[]) => void): Promise<SseFrame[]> {
  const frames: SseFrame[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return frames;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const [frame] = parseSse(buffered.slice(0, end + 2));
      buffered = buffered.slice(end + 2);
      if (!frame) continue;
      frames.push(frame);
      onFrame(frame, frames);
    }
  }
}

describe("every token a client received is billed once: calls cut off part-way", () => {
  let h: Harness;
  before(async () => (h = await harness()));

  /** Streams an agent run whose one call sends LONG_REPLY over `latencyMs`. */
  async function streamLong(key: string, marker: string, extra: Record<string, unknown> = {}) {
    return fetch(`${h.baseUrl}${AGENT_COMPLETIONS}`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        agent_config: {
          agent_name: "Streamer",
          streaming_on: true,
          llm_args: { sim_reply: LONG_REPLY, sim_latency_ms: 3_000 },
        },
        task: marker,
        ...extra,
      }),
    });
  }

  /** What the one cut-off call is stored and billed as, checked against what the client received. */
  async function expectCutOffBilled(runId: string, received: string, userId: string) {
    const ledger = await eventually(async () => {
      const found = await runLedger(h, runId);
      return found.billed !== null && found.steps.length > 0 ? found : undefined;
    });
    expect(ledger.steps, "the cut-off call is a step").to.have.length(1);
    const [step] = ledger.steps;
    expect(step.status).to.equal("cut_off");
    expect(step.output.content, "what was streamed to the client is what is stored").to.equal(received);
    expect(step.output_tokens).to.equal(countTokens(received));
    expect(step.input_tokens).to.be.greaterThan(0);
    expect(step.cost).to.be.greaterThan(0);
    const run = await findRun(h.deps.ds, runId);
    const usage = run!.usage as { output_tokens: number; input_tokens: number; total_cost: number };
    expect(usage.output_tokens, "the run's usage counts the streamed tokens").to.equal(step.output_tokens);
    expect(usage.input_tokens).to.equal(step.input_tokens);
    expect(ledger.ledger, "the bill is the ledger").to.be.closeTo(ledger.billed!, 1e-6);
    expect(usage.total_cost).to.be.greaterThan(0);
    // The account's daily pool (its spend ceiling) counted the same, and holds no reservation.
    await expectPoolMatchesLedger(h, userId);
  }

  it("bills a streamed call cut off by the run's time limit for the tokens the client received", async () => {
    const { key, userId } = await h.newKey();
    const res = await streamLong(key, `deadline-${Date.now()}`, { budget: { timeout_seconds: 2 } });
    const frames = await readStream(res, () => undefined);
    const chunks = frames.filter((f) => f.event === "chunk");
    expect(chunks.length, "part of the answer reached the client").to.be.greaterThan(3);
    expect(frames.at(-1)!.event).to.equal("error");
    const received = chunks.map((c) => c.data.content).join("");
    expect(received.length).to.be.lessThan(LONG_REPLY.length);
    const runId = frames[0].data.job_id;
    const run = await findRun(h.deps.ds, runId);
    expect(run!.status).to.equal("failed");
    expect(run!.error!.code).to.equal("BUDGET_EXCEEDED");
    await expectCutOffBilled(runId, received, userId);
  });

  it("bills a streamed call cut off by DELETE /v1/jobs/{id} for the tokens the client received", async () => {
    const { key, userId } = await h.newKey();
    const res = await streamLong(key, `cancel-${Date.now()}`);
    let runId = "";
    const cancels: Promise<{ status: number }>[] = [];
    const frames = await readStream(res, (frame, all) => {
      if (frame.event === "message") runId = frame.data.job_id;
      if (!cancels.length && all.filter((f) => f.event === "chunk").length === 8)
        cancels.push(request(h.baseUrl, "DELETE", `/v1/jobs/${runId}`, { key }));
    });
    expect(cancels).to.have.length(1);
    expect((await cancels[0]).status).to.equal(200);
    const received = frames
      .filter((f) => f.event === "chunk")
      .map((c) => c.data.content)
      .join("");
    expect(received.length).to.be.lessThan(LONG_REPLY.length);
    expect((await findRun(h.deps.ds, runId))!.status).to.equal("cancelled");
    await expectCutOffBilled(runId, received, userId);
    const read = await request(h.baseUrl, "GET", `/v1/jobs/${runId}`, { key });
    expect(read.body.status).to.equal("cancelled");
    // Bull Board shows the cancelled run's job with what it spent, as its row does.
    const shown = await eventually(async () => {
      const job = await h.deps.queues.shards[0].agent.getJob(runId);
      return (await job?.getState()) === "completed" ? job!.returnvalue : undefined;
    });
    expect(shown).to.include({ status: "cancelled", cost: read.body.usage.total_cost });
    expect(read.body.usage.output_tokens, "the job read shows what the cancelled run spent").to.equal(
      countTokens(received),
    );
  });

  it("bills a call that was not streamed, cut off by its run's time limit, for its prompt", async () => {
    const { key, userId } = await h.newKey();
    const marker = `quiet-deadline-${Date.now()}`;
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { agent_name: "Quiet", llm_args: { sim_latency_ms: 5_000 } },
        task: marker,
        budget: { timeout_seconds: 1 },
      },
    });
    expect(res.status).to.equal(500);
    const runId = res.body.job_id;
    const ledger = await eventually(async () => {
      const found = await runLedger(h, runId);
      return found.steps.length ? found : undefined;
    });
    expect(ledger.steps[0]).to.include({ status: "cut_off", output_tokens: 0 });
    expect(ledger.steps[0].input_tokens).to.be.greaterThan(0);
    expect(ledger.ledger).to.be.closeTo(ledger.billed!, 1e-6);
    await expectPoolMatchesLedger(h, userId);
  });
});
