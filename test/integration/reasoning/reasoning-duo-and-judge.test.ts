import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { postReasoning, systemOf } from "../../helpers/reasoning";
import { callerOf, callsMentioning, inputOf, uniqueMarker } from "../../helpers/swarm";

const LATENCY_MS = 200;

describe("reasoning agents: reasoning-duo and AgentJudge", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("reasoning-duo: each round the reasoner reasons, then the main agent answers from the transcript ending with that reasoning; 2·L calls, one after the other", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("duo");
    const res = await postReasoning(h, key, {
      agent_name: "Duo",
      swarm_type: "reasoning-duo",
      system_prompt: `Main prompt ${marker}`,
      max_loops: 2,
      task: marker,
      llm_args: { sim_latency_ms: LATENCY_MS },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const output: { role: string; content: string }[] = res.body.output;
    expect(output.map((t) => t.role)).to.deep.equal(["Duo-reasoner", "Duo", "Duo-reasoner", "Duo"]);
    expect(res.body.number_of_agents).to.equal(2);

    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(["Duo-reasoner", "Duo", "Duo-reasoner", "Duo"]);
    // Only the main agent takes the request's system prompt; the reasoner keeps its job's.
    expect(systemOf(calls[1]).startsWith(`Main prompt ${marker}`)).to.equal(true);
    expect(systemOf(calls[0])).to.include("<think>").and.not.include("Main prompt");

    expect(inputOf(calls[0])).to.equal(marker);
    expect(inputOf(calls[1])).to.equal(`user: ${marker}\n\nDuo-reasoner: ${output[0].content}`);
    expect(inputOf(calls[2])).to.match(/^Continue reasoning/);
    expect(inputOf(calls[2])).to.include(`Duo: ${output[1].content}`);
    expect(inputOf(calls[3]).endsWith(`Duo-reasoner: ${output[2].content}`)).to.equal(true);
    expect(inputOf(calls[3])).to.include(`Duo: ${output[1].content}`);

    // Depth 4: every call waits for the one before.
    expect(res.body.execution_time).to.be.at.least((4 * LATENCY_MS * 0.95) / 1_000);
  });

  it("AgentJudge: max_loops evaluations one after the other, each seeing the content and every evaluation before it", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("judge");
    const res = await postReasoning(h, key, {
      agent_name: "Judge",
      swarm_type: "AgentJudge",
      max_loops: 3,
      task: `The answer to evaluate: 2 + 2 = 5 (${marker})`,
      llm_args: { sim_latency_ms: LATENCY_MS },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const output: { role: string; content: string }[] = res.body.output;
    expect(output.map((t) => t.role)).to.deep.equal(["Judge", "Judge", "Judge"]);
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(3);
    calls.forEach((call, i) => {
      const input = inputOf(call);
      expect(input.startsWith(`user: The answer to evaluate: 2 + 2 = 5 (${marker})`)).to.equal(true);
      for (let before = 0; before < i; before++) expect(input).to.include(`Judge: ${output[before].content}`);
      if (i < 2) expect(input).not.to.include(output[i].content);
    });
    expect(systemOf(calls[0])).to.include("Score: <0-10>");
    expect(res.body.execution_time).to.be.at.least((3 * LATENCY_MS * 0.95) / 1_000);
  });
});
