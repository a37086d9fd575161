import { expect } from "chai";
import { queryPlanProblem, renderQueries, sortPlan } from "../../workers/swarms/types/deep-research-queries";
import { renderVote, voteProblem } from "../../workers/swarms/types/malt-vote";

const plan = (...queries: [string, string][]) => ({
  queries: queries.map(([query, researcher]) => ({ query, researcher })),
});

describe("DeepResearchSwarm's query plans", () => {
  const team = ["Historian", "Economist"];

  it("take 3 to 6 new queries in the first round and 0 to 6 later, each new one for a researcher of the team", () => {
    const three = plan(["a", "Historian"], ["b", "Economist"], ["c", "Historian"]);
    expect(queryPlanProblem(team, true, three)).to.equal(null);
    expect(queryPlanProblem(team, false, plan())).to.equal(null);
    expect(queryPlanProblem(team, true, plan(["a", "Historian"]))).to.equal("plan from 3 to 6 new queries (got 1)");
    expect(
      queryPlanProblem(
        team,
        false,
        plan(...Array.from({ length: 7 }, (_, i): [string, string] => [`q${i}`, "Historian"])),
      ),
    ).to.equal("plan from 0 to 6 new queries (got 7)");
    expect(queryPlanProblem(team, false, plan(["Same", "Historian"], [" ", "Ghost"]))).to.equal("query 2 has no text");
    expect(queryPlanProblem(team, false, plan(["a", "Ghost"]))).to.equal(
      "query 1 names no researcher of the team (Historian, Economist)",
    );
    expect(queryPlanProblem(team, true, { queries: "a, b, c" })).to.equal(
      "'queries' must be a list of {query, researcher}",
    );
  });

  it("count only new queries: a repeat is no problem, but a first round of repeats is too small", () => {
    const repeats = plan(["Same", "Historian"], [" same ", "Ghost"], ["SAME", "Economist"]);
    expect(queryPlanProblem(team, false, repeats)).to.equal(null);
    expect(queryPlanProblem(team, true, repeats)).to.equal("plan from 3 to 6 new queries (got 1)");
    const researched = new Set(["old"]);
    expect(queryPlanProblem(team, false, plan([" OLD ", "Ghost"]), researched)).to.equal(null);
    const seven = plan(
      ["old", "Historian"],
      ...Array.from({ length: 6 }, (_, i): [string, string] => [`q${i}`, "Economist"]),
    );
    expect(queryPlanProblem(team, false, seven, researched)).to.equal(null);
  });

  it("leave out a query planned earlier in the plan or researched in an earlier round, keeping the first in order", () => {
    const sorted = sortPlan(
      plan([" new ", "Historian"], ["OLD", "Economist"], ["New", "Economist"], ["other", "Economist"]),
      new Set(["old"]),
    );
    expect(sorted).to.deep.equal({
      queries: [
        { query: "new", researcher: "Historian" },
        { query: "other", researcher: "Economist" },
      ],
      repeats: ["OLD", "New"],
    });
  });

  it("are shown as numbered lines naming the researcher, the repeats left out, or as the end of the research", () => {
    const two = plan(["a", "Historian"], ["b", "Economist"]).queries;
    expect(renderQueries({ queries: two, repeats: [] })).to.equal("1. [Historian] a\n2. [Economist] b");
    expect(renderQueries({ queries: two, repeats: ["old"] })).to.equal(
      "1. [Historian] a\n2. [Economist] b\nLeft out, already planned or researched: old",
    );
    expect(renderQueries({ queries: [], repeats: [] })).to.equal("No further queries: the findings answer the task.");
    expect(renderQueries({ queries: [], repeats: ["old", "older"] })).to.equal(
      "No new queries: the research ends.\nLeft out, already planned or researched: old; older",
    );
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
