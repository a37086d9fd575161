import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { postReasoning, systemOf, timedCallsMentioning } from "../../helpers/reasoning";
import { callerOf, inputOf, uniqueMarker } from "../../helpers/swarm";

const LATENCY_MS = 600;

describe("reasoning agents: GKPAgent", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("generates num_knowledge_items statements, answers from each in parallel, then the coordinator answers from every pair: depth 3", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("gkp");
    const items = ["alpha", "beta", "gamma", "delta"].map((w) => `${w} ${marker}`);
    // The generator writes four statements; only the three asked for are used.
    h.sim.script({
      contains: `Input: ${marker}`,
      reply: items.map((item, i) => `Knowledge ${i + 1}: ${item}`).join("\n"),
    });
    const res = await postReasoning(h, key, {
      agent_name: "Sage",
      swarm_type: "GKPAgent",
      num_knowledge_items: 3,
      system_prompt: `Coordinator prompt ${marker}`,
      task: marker,
      llm_args: { sim_latency_ms: LATENCY_MS },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const output: { role: string; content: string }[] = res.body.output;
    expect(output.map((t) => t.role)).to.deep.equal([
      "Sage-knowledge",
      "Sage-reasoner",
      "Sage-reasoner",
      "Sage-reasoner",
      "Sage",
    ]);
    expect(res.body.number_of_agents).to.equal(3);

    const calls = timedCallsMentioning(h, marker);
    expect(calls).to.have.length(5);
    const [generator, ...rest] = calls;
    const reasoners = rest.slice(0, 3);
    const coordinator = rest[3];
    expect(callerOf(generator.body)).to.equal("Sage-knowledge");
    expect(systemOf(generator.body)).to.include("write 3 separate");
    expect(inputOf(generator.body)).to.equal(`Input: ${marker}\nKnowledge:`);
    expect(reasoners.map((c) => inputOf(c.body)).sort()).to.deep.equal(
      items.slice(0, 3).map((item) => `Question: ${marker}\nKnowledge: ${item}\nExplain and answer:`),
    );
    expect(callerOf(coordinator.body)).to.equal("Sage");
    expect(systemOf(coordinator.body).startsWith(`Coordinator prompt ${marker}`)).to.equal(true);
    const input = inputOf(coordinator.body);
    items.slice(0, 3).forEach((item, i) => {
      expect(input).to.include(`Knowledge ${i + 1}: ${item}\nAnswer ${i + 1}: ${output[1 + i].content}`);
    });
    expect(input).not.to.include(items[3]);

    // The three answers were in flight together.
    const ats = reasoners.map((c) => c.at);
    expect(Math.max(...ats) - Math.min(...ats)).to.be.below(LATENCY_MS / 2);
    const seconds = res.body.execution_time;
    expect(seconds).to.be.at.least((3 * LATENCY_MS * 0.95) / 1_000);
    // Five calls one after the other would take 5 latencies; a cold worker adds some overhead to the 3.
    expect(seconds).to.be.below((4 * LATENCY_MS) / 1_000);
  });
});
