import { expect } from "chai";
import { knowledgeItems } from "../../workers/reasoning/types/gkp-agent";
import { simulationVerdict } from "../../workers/reasoning/types/ire";
import { evaluationScore } from "../../workers/reasoning/types/reflexion-agent";

describe("what the reasoning types read from their agents' replies", () => {
  it("GKP: the statements after `Knowledge <i>:` markers, at most the number asked; else paragraphs; else the whole reply", () => {
    expect(knowledgeItems("Intro\nKnowledge 1: a\nmore a\nKnowledge 2: b\nKnowledge 3: c", 2)).to.deep.equal([
      "a\nmore a",
      "b",
    ]);
    expect(knowledgeItems("first fact\n\nsecond fact\n\nthird", 2)).to.deep.equal(["first fact", "second fact"]);
    expect(knowledgeItems("one line", 6)).to.deep.equal(["one line"]);
  });

  it("IRE: a simulation's score and errors, a missing score counting as failing", () => {
    expect(simulationVerdict("1. Outcome: ok\n2. Score: 0.85\n3. Errors: slow on big inputs")).to.deep.equal({
      score: 0.85,
      errors: "slow on big inputs",
    });
    expect(simulationVerdict("No structure at all")).to.deep.equal({ score: 0, errors: "No structure at all" });
  });

  it("Reflexion: the last final or overall score out of 10, 5 when there is none, never above 10", () => {
    expect(evaluationScore("Overall score: 4\n…\nFinal Score: 7.5")).to.equal(7.5);
    expect(evaluationScore("Good, but no number")).to.equal(5);
    expect(evaluationScore("Final score: 85")).to.equal(10);
  });

  it("reads a hostile 100,000-character reply in linear time (runs of newlines and spaces took seconds)", () => {
    const timed = (read: () => unknown) => {
      const started = performance.now();
      read();
      return performance.now() - started;
    };
    expect(
      timed(() => simulationVerdict("\n".repeat(100_000))),
      "IRE, newlines",
    ).to.be.below(200);
    expect(
      timed(() => simulationVerdict(" \n".repeat(50_000))),
      "IRE, spaced lines",
    ).to.be.below(200);
    expect(
      timed(() => evaluationScore(`final score${" ".repeat(100_000)}x`)),
      "Reflexion",
    ).to.be.below(200);
    expect(simulationVerdict(`${"\n".repeat(1_000)}  2. Score: 0.7\nErrors: none`)).to.deep.equal({
      score: 0.7,
      errors: "none",
    });
    expect(evaluationScore("Overall score :  8")).to.equal(8);
  });
});
