import { expect } from "chai";
import { queryPlanProblem, renderQueries } from "../../workers/swarms/types/deep-research-queries";
import { renderVote, voteProblem } from "../../workers/swarms/types/malt-vote";

const plan = (...queries: [string, string][]) => ({
  queries: queries.map(([query, researcher]) => ({ query, researcher })),
});

describe("DeepResearchSwarm's query plans", () => {
  const team = ["Historian", "Economist"];

  it("take 3 to 6 distinct queries in the first round and 0 to 6 new ones later, each for a researcher of the team", () => {
    const three = plan(["a", "Historian"], ["b", "Economist"], ["c", "Historian"]);
    expect(queryPlanProblem(team, true, three)).to.equal(null);
    expect(queryPlanProblem(team, false, plan())).to.equal(null);
    expect(queryPlanProblem(team, true, plan(["a", "Historian"]))).to.equal("plan from 3 to 6 queries (got 1)");
    expect(
      queryPlanProblem(
        team,
        false,
        plan(...Array.from({ length: 7 }, (_, i): [string, string] => [`q${i}`, "Historian"])),
      ),
    ).to.equal("plan from 0 to 6 queries (got 7)");
    expect(
      queryPlanProblem(team, false, plan(["Same", "Historian"], [" same ", "Economist"], [" ", "Ghost"])),
    ).to.equal("query 2 repeats an earlier query; query 3 has no text");
    expect(
      queryPlanProblem(team, false, plan([" OLD ", "Historian"], ["new", "Economist"]), new Set(["old"])),
    ).to.equal("query 1 was already researched in an earlier round");
    expect(queryPlanProblem(team, false, plan(["a", "Ghost"]))).to.equal(
      "query 1 names no researcher of the team (Historian, Economist)",
    );
    expect(queryPlanProblem(team, true, { queries: "a, b, c" })).to.equal(
      "'queries' must be a list of {query, researcher}",
    );
  });

  it("are shown as numbered lines naming the researcher, or as the end of the research", () => {
    expect(renderQueries(plan(["a", "Historian"], ["b", "Economist"]).queries)).to.equal(
      "1. [Historian] a\n2. [Economist] b",
    );
    expect(renderQueries([])).to.equal("No further queries: the findings answer the task.");
  });
});

describe("MALT's vote over refinements", () => {
  it("names one of the refinements, the refinements that agree, and why", () => {
    expect(voteProblem(3, { chosen: 2, agreeing: [1, 2], rationale: "same result" })).to.equal(null);
    expect(voteProblem(3, { chosen: 4, agreeing: [0], rationale: 1 })).to.equal(
      "'chosen' must be a refinement number from 1 to 3; 'agreeing' must list refinement numbers from 1 to 3; 'rationale' must be a string",
    );
    expect(voteProblem(3, [2])).to.equal("the vote must be an object with chosen, agreeing and rationale");
  });

  it("is shown as the choice, the agreement, the rationale, then the chosen answer", () => {
    expect(renderVote({ chosen: 2, agreeing: [1, 2], rationale: "Both prove it." }, 3, "42")).to.equal(
      "Chosen: refinement 2; 2 of 3 refinements agree (1, 2).\n\nRationale: Both prove it.\n\nAnswer:\n42",
    );
    expect(renderVote({ chosen: 3, agreeing: [3], rationale: "" }, 3, "x")).to.equal(
      "Chosen: refinement 3; no other refinement of 3 agrees.\n\nAnswer:\nx",
    );
  });
});
