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

  /** Runs a GKPAgent asked for `items` statements whose generator replies `first`, and `second` when asked again. */
  async function askedTwice(marker: string, items: number, first: string, second: string) {
    h.sim.script({ contains: `Input: ${marker}\nKnowledge:`, reply: first });
    h.sim.script({ contains: `Input: ${marker}\n\nKnowledge already written`, reply: second });
    const res = await postReasoning(h, key, {
      agent_name: "Sage",
      swarm_type: "GKPAgent",
      num_knowledge_items: items,
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const output: { role: string; content: string }[] = res.body.output;
    return { body: res.body, output, calls: timedCallsMentioning(h, marker).map((c) => c.body) };
  }

  it("asks the generator once more when it writes fewer statements than asked, then reasons from every one", async () => {
    const marker = uniqueMarker("gkp-more");
    const items = ["alpha", "beta", "gamma", "delta"].map((w) => `${w} ${marker}`);
    const { output, calls } = await askedTwice(
      marker,
      4,
      `Knowledge 1: ${items[0]}\nKnowledge 2: ${items[1]}`,
      `Knowledge 3: ${items[2]}\nKnowledge 4: ${items[3]}`,
    );
    expect(output.map((t) => t.role)).to.deep.equal([
      "Sage-knowledge",
      "Sage-knowledge",
      ...items.map(() => "Sage-reasoner"),
      "Sage",
    ]);

    expect(calls).to.have.length(2 + items.length + 1);
    const again = calls[1];
    expect(callerOf(again)).to.equal("Sage-knowledge");
    expect(systemOf(again)).to.include("write 2 separate");
    expect(inputOf(again)).to.equal(
      `Input: ${marker}\n\nKnowledge already written:\nKnowledge 1: ${items[0]}\nKnowledge 2: ${items[1]}\n\nWrite 2 more, each different from those above, numbered from Knowledge 3.\n\nKnowledge:`,
    );
    const reasoners = calls.filter((c) => callerOf(c) === "Sage-reasoner");
    expect(reasoners.map((c) => inputOf(c)).sort()).to.deep.equal(
      items.map((item) => `Question: ${marker}\nKnowledge: ${item}\nExplain and answer:`).sort(),
    );
    const coordinator = inputOf(calls.at(-1));
    items.forEach((item, i) => expect(coordinator).to.include(`Knowledge ${i + 1}: ${item}\nAnswer ${i + 1}:`));
  });

  it("still short after asking once more, reasons from the statements it has and says so in the output", async () => {
    const marker = uniqueMarker("gkp-short");
    const only = `alpha ${marker}`;
    // The second reply repeats the first statement: nothing new.
    const { body, output, calls } = await askedTwice(marker, 3, `Knowledge 1: ${only}`, `Knowledge 2: ${only}`);
    expect(output.map((t) => t.role)).to.deep.equal([
      "Sage-knowledge",
      "Sage-knowledge",
      "system",
      "Sage-reasoner",
      "Sage",
    ]);
    expect(output[2].content).to.equal(
      "Only 1 of the 3 knowledge statements asked for (num_knowledge_items) was written, after asking Sage-knowledge twice: the answer is reasoned from it alone.",
    );
    expect(calls.map(callerOf)).to.deep.equal(["Sage-knowledge", "Sage-knowledge", "Sage-reasoner", "Sage"]);
    expect(body.number_of_agents).to.equal(3);
  });
});
