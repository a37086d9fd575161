import { expect } from "chai";
import { graphProblems, planGraph } from "../../shared/swarms/graph-plan";
import { plannedSteps } from "../../shared/swarms/planned-steps";

const edge = (source: string, target: string) => ({ source, target });

describe("graph plans (shared/swarms/graph-plan.ts)", () => {
  it("defaults entry points to the nodes without sources and end points to those without targets, sources in request order", () => {
    const graph = {
      names: ["A", "B", "C", "D"],
      edges: [edge("A", "C"), edge("B", "D"), edge("C", "D"), edge("A", "C")],
    };
    expect(graphProblems(graph)).to.deep.equal([]);
    const plan = planGraph(graph);
    expect(plan.entryPoints).to.deep.equal(["A", "B"]);
    expect(plan.endPoints).to.deep.equal(["D"]);
    expect(plan.sources.get("D")).to.deep.equal(["B", "C"]);
    expect(plan.sources.get("C")).to.deep.equal(["A"]);
  });

  it("takes a single node without edges", () => {
    expect(graphProblems({ names: ["Solo"], edges: [] })).to.deep.equal([]);
    expect(planGraph({ names: ["Solo"], edges: [] })).to.deep.include({ entryPoints: ["Solo"], endPoints: ["Solo"] });
  });

  it("names every node of every cycle", () => {
    const problems = graphProblems({
      names: ["A", "B", "C", "D", "E"],
      edges: [edge("A", "B"), edge("B", "A"), edge("C", "D"), edge("D", "E"), edge("E", "C")],
    });
    expect(problems).to.deep.equal(["the edges form a cycle: A → B → A", "the edges form a cycle: C → D → E → C"]);
  });

  it("names every problem at once: unknown names beside cycles beside unreachable nodes", () => {
    const problems = graphProblems({
      names: ["A", "B", "C", "", "C"],
      edges: [edge("A", "B"), edge("B", "A"), edge("Q", "C")],
      end_points: ["Z"],
    });
    expect(problems).to.deep.equal([
      "agents[3] has no agent_name: a node is its agent_name",
      "'C' names more than one agent (agents[2], agents[4]): a node is its agent_name",
      "edges[2].source 'Q' is not an agent of the graph",
      "end_points[0] 'Z' is not an agent of the graph",
      "the edges form a cycle: A → B → A",
    ]);
  });

  it("reads the rest of a graph as if each cycle were broken at the edge that closes it, so a cycle's consequences are not named again", () => {
    // Broken at B → A, A is where the task enters and every node is reached.
    expect(
      graphProblems({ names: ["A", "B", "C"], edges: [edge("A", "B"), edge("B", "A"), edge("B", "C")] }),
    ).to.deep.equal(["the edges form a cycle: A → B → A"]);
    // An entry point the client chose still has to lead to every node once the cycle is broken.
    expect(
      graphProblems({
        names: ["X", "A", "B"],
        edges: [edge("A", "B"), edge("B", "A")],
        entry_points: ["X"],
      }),
    ).to.deep.equal([
      "the edges form a cycle: A → B → A",
      "end point 'B' cannot be reached from the entry points ('X')",
      "node 'A' cannot be reached from the entry points ('X')",
    ]);
  });

  it("refuses a root left out of the entry points: the nodes after it only are unreachable", () => {
    const problems = graphProblems({
      names: ["A", "X", "B", "C"],
      edges: [edge("A", "B"), edge("X", "C")],
      entry_points: ["A"],
    });
    expect(problems).to.deep.equal([
      "end point 'C' cannot be reached from the entry points ('A')",
      "node 'X' cannot be reached from the entry points ('A')",
    ]);
  });
});

describe("planned steps of the workflows", () => {
  const plain = (name: string, max_loops = 1) => ({ agent_name: name, model_name: "gpt-4.1", max_loops });

  it("a graph: every node's calls per loop × loops; a grid: every cell's calls × loops", () => {
    expect(plannedSteps("graph_workflow", { agents: [plain("A"), plain("B", 2)], max_loops: 3 })).to.equal(9);
    expect(
      plannedSteps("batched_grid_workflow", { agents: [plain("A"), plain("B")], tasks: ["x", "y", "z"], max_loops: 2 }),
    ).to.equal(12);
  });

  it("is unknown when an agent's calls are the model's choice", () => {
    const tooled = { ...plain("T"), tools_list_dictionary: [{}] };
    expect(plannedSteps("graph_workflow", { agents: [plain("A"), tooled], max_loops: 1 })).to.equal(null);
  });
});
