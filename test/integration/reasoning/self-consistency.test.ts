import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { postReasoning, timedCallsMentioning } from "../../helpers/reasoning";
import { callerOf, inputOf, uniqueMarker } from "../../helpers/swarm";

const LATENCY_MS = 500;

describe("reasoning agents: self-consistency", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("takes num_samples answers in parallel, then the aggregator sees all of them: wall time about two calls, not N+1", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("consistency");
    const res = await postReasoning(h, key, {
      agent_name: "Voter",
      swarm_type: "self-consistency",
      num_samples: 5,
      task: marker,
      output_type: "dict",
      llm_args: { sim_latency_ms: LATENCY_MS },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const output: { role: string; content: string }[] = res.body.output;
    expect(output.map((t) => t.role)).to.deep.equal(["user", ...Array(5).fill("Voter"), "Voter-aggregator"]);
    expect(output[0].content).to.equal(marker);

    const calls = timedCallsMentioning(h, marker);
    expect(calls).to.have.length(6);
    const samples = calls.slice(0, 5);
    const aggregate = calls[5];
    expect(samples.map((c) => callerOf(c.body))).to.deep.equal(Array(5).fill("Voter"));
    for (const sample of samples) expect(inputOf(sample.body)).to.equal(marker);
    expect(callerOf(aggregate.body)).to.equal("Voter-aggregator");
    // The samples were in flight together; the aggregator came after every one had answered.
    const firstAt = Math.min(...samples.map((c) => c.at));
    const lastAt = Math.max(...samples.map((c) => c.at));
    expect(lastAt - firstAt).to.be.below(LATENCY_MS / 2);
    expect(aggregate.at - lastAt).to.be.at.least(LATENCY_MS * 0.9);
    const input = inputOf(aggregate.body);
    output.slice(1, 6).forEach((turn, i) => expect(input).to.include(`Answer ${i + 1}:\n${turn.content}`));

    const seconds = res.body.execution_time;
    expect(seconds).to.be.at.least((2 * LATENCY_MS * 0.95) / 1_000);
    expect(seconds).to.be.below((6 * LATENCY_MS * 0.6) / 1_000);
  });

  it("takes 3 samples when num_samples is not given, and with max_loops each sample is an agent of that many loops", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("consistency-loops");
    const res = await postReasoning(h, key, { swarm_type: "self-consistency", max_loops: 2, task: marker });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.output.map((t: any) => t.role)).to.deep.equal([
      "reasoning-agent",
      "reasoning-agent",
      "reasoning-agent",
      "reasoning-agent-aggregator",
    ]);
    // 3 samples × 2 loops, then the aggregation.
    const calls = timedCallsMentioning(h, marker);
    expect(calls).to.have.length(7);
    expect(calls.filter((c) => inputOf(c.body) === marker)).to.have.length(3);
    expect(callerOf(calls[6].body)).to.equal("reasoning-agent-aggregator");
  });
});
