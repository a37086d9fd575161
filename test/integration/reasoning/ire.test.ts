import { expect } from "chai";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { postReasoning, timedCallsMentioning } from "../../helpers/reasoning";
import { inputOf, uniqueMarker } from "../../helpers/swarm";

const LATENCY_MS = 150;

/** Which IRE step a call is, from the start of its input (after the problem line, which every later step has). */
function stepOf(input: string): string {
  if (input.startsWith("Given the following problem")) return "propose";
  const ask = input.split("\n\n")[1] ?? "";
  if (ask.startsWith("Simulate the following reasoning path")) return "simulate";
  if (ask.startsWith("Analyse these errors")) return "reflect";
  if (ask.startsWith("Revise the reasoning path")) return "revise";
  if (ask.startsWith("Evaluate these reasoning paths")) return "select";
  if (ask.startsWith("The most promising reasoning paths")) return "synthesise";
  return "?";
}

describe("reasoning agents: ire (Iterative Reflective Expansion)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("keeps num_samples paths, simulates them in parallel, reflects on and revises the weak ones, selects, max_loops times, then synthesises", async function () {
    this.timeout(30_000);
    const m = uniqueMarker("ire");
    const path = (name: string) => `Path ${name} ${m}`;
    h.sim.script({ contains: `${m}\n\nList up to 2`, reply: [path("A"), path("B"), path("C")].join("\n") });
    h.sim.script({ contains: `Reasoning path: ${path("A")}`, reply: "Outcome: works\nScore: 0.9\nErrors: none" });
    h.sim.script({ contains: `Reasoning path: ${path("B")}`, reply: `Outcome: weak\nScore: 0.2\nErrors: B-flaw ${m}` });
    h.sim.script({ contains: `Revise the reasoning path:\n${path("B")}\n`, reply: `${path("B2")}\n${path("B3")}` });
    h.sim.script({
      contains: `Problem: ${m}\n\nEvaluate these reasoning paths`,
      reply: `${path("A")}\n${path("B2")}\n${path("B3")}`,
    });

    const res = await postReasoning(h, key, {
      agent_name: "Ire",
      swarm_type: "ire-agent",
      num_samples: 2,
      max_loops: 2,
      task: m,
      llm_args: { sim_latency_ms: LATENCY_MS },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ swarm_type: "ire", agent_type: "ire-agent", number_of_agents: 1 });

    const calls = timedCallsMentioning(h, m);
    const steps = calls.map((c) => stepOf(inputOf(c.body)));
    // Round 1: A passes, B (0.2) is reflected on and revised; round 2: A passes, B2 (no score) is revised.
    const round = ["simulate", "simulate", "reflect", "revise", "select"];
    expect(steps).to.deep.equal(["propose", ...round, ...round, "synthesise"]);
    const inputs = calls.map((c) => inputOf(c.body));
    // Only the first two proposed paths are kept.
    expect(inputs[1] + inputs[2])
      .to.include(path("A"))
      .and.include(path("B"));
    expect(inputs.join("\n")).not.to.include(`Reasoning path: ${path("C")}`);
    expect(inputs[3]).to.include(`B-flaw ${m}`);
    expect(inputs[4]).to.include(`Revise the reasoning path:\n${path("B")}\n`);
    // The selection sees A and both revisions; round 2 simulates its first two picks.
    expect(inputs[5]).to.include(`${path("A")}\n${path("B2")}\n${path("B3")}`);
    expect(inputs[6] + inputs[7])
      .to.include(`Reasoning path: ${path("A")}`)
      .and.include(`Reasoning path: ${path("B2")}`);
    // The synthesis sees the kept paths and every path tried.
    expect(inputs[11]).to.include(`The most promising reasoning paths:\n${path("A")}\n${path("B2")}`);
    expect(inputs[11]).to.include(`Every path tried:\n${path("A")}\n${path("B")}\n${path("A")}\n${path("B2")}`);

    // The simulations of a round overlap; depth is 1 + 2·(simulate, reflect, revise, select) + 1 = 10, not 12.
    expect(Math.abs(calls[1].at - calls[2].at)).to.be.below(LATENCY_MS / 2);
    expect(Math.abs(calls[6].at - calls[7].at)).to.be.below(LATENCY_MS / 2);
    expect(res.body.execution_time).to.be.at.least((10 * LATENCY_MS * 0.95) / 1_000);
    expect(res.body.output).to.have.length(12);
  });
});
