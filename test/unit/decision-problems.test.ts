import { expect } from "chai";
import { boundedProblem, MAX_PROBLEM_CHARS } from "../../workers/swarms/decision-problems";
import { ordersProblem } from "../../workers/swarms/types/hierarchical-swarm";
import { routeProblem } from "../../workers/swarms/types/multi-agent-router";

/** A decision is a model's output: what is wrong with it is told in a bounded message, in linear time. */
describe("problems of an enormous decision", () => {
  const workers = Array.from({ length: 100 }, (_, i) => `${"Worker".padEnd(190, "x")}${i}`);
  const bad = Array.from({ length: 20_000 }, (_, i) => ({ agent: `nobody ${i}`, task: "" }));

  it("a router's or a director's: the first 20 named, the rest counted, in well under a second", () => {
    // Each problem names the 100 workers: 20,000 of them made a message of hundreds of megabytes.
    for (const read of [
      () => routeProblem(workers, { routes: bad, reason: "r" }),
      () => ordersProblem(workers, false, { plan: "p", orders: bad }),
    ]) {
      const started = performance.now();
      const problem = read()!;
      expect(performance.now() - started, "ms").to.be.below(1_000);
      expect(problem).to.match(/; and 39980 more$/);
      expect(problem.length).to.be.below(20 * 21_000);
    }
  });

  it("any validator's text is cut to MAX_PROBLEM_CHARS before it goes back to the model or into the run's error", () => {
    expect(boundedProblem("short")).to.equal("short");
    const cut = boundedProblem("🐝".repeat(10_000));
    expect(cut.length).to.be.at.most(MAX_PROBLEM_CHARS);
    expect(cut.endsWith("…")).to.equal(true);
    expect(cut.isWellFormed()).to.equal(true);
  });
});
