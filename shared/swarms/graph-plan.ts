import type { GraphEdge } from "../contracts/workflows";

/** What a graph workflow is made of, as a client sends it (agents already named). */
export interface GraphShape {
  names: string[];
  edges: GraphEdge[];
  entry_points?: string[] | null;
  end_points?: string[] | null;
}

/** A graph that can run: every node's sources, and where the task enters and the loop ends. */
export interface GraphPlan {
  /** The nodes in request order. */
  nodes: string[];
  /** Each node's sources (each once), in request order: the outputs its input holds. */
  sources: Map<string, string[]>;
  entryPoints: string[];
  endPoints: string[];
}

const quoted = (names: Iterable<string>) => [...names].map((n) => `'${n}'`).join(", ");

/** Agents without a name, and names given more than once, each with where it sits. */
function nameProblems(names: string[]): string[] {
  const seen = new Map<string, number[]>();
  const blank: string[] = [];
  names.forEach((name, i) =>
    name
      ? seen.set(name, [...(seen.get(name) ?? []), i])
      : blank.push(`agents[${i}] has no agent_name: a node is its agent_name`),
  );
  const twice = [...seen]
    .filter(([, at]) => at.length > 1)
    .map(
      ([name, at]) =>
        `'${name}' names more than one agent (${at.map((i) => `agents[${i}]`).join(", ")}): a node is its agent_name`,
    );
  return [...blank, ...twice];
}

/** Every node's sources and targets, from the edges whose ends both exist (each edge once). */
function adjacency(nodes: string[], edges: GraphEdge[]) {
  const known = new Set(nodes);
  const targets = new Map(nodes.map((n) => [n, new Set<string>()]));
  const sources = new Map(nodes.map((n) => [n, new Set<string>()]));
  for (const { source, target } of edges) {
    if (!known.has(source) || !known.has(target)) continue;
    targets.get(source)!.add(target);
    sources.get(target)!.add(source);
  }
  const inOrder = (set: Set<string>) => nodes.filter((n) => set.has(n));
  return {
    targets: new Map(nodes.map((n) => [n, inOrder(targets.get(n)!)])),
    sources: new Map(nodes.map((n) => [n, inOrder(sources.get(n)!)])),
  };
}

/**
 * The cycles a depth-first walk meets (one per edge that closes one), each as `A → B → A`, and
 * those closing edges: without them the graph has no cycle.
 */
function cycles(nodes: string[], targets: Map<string, string[]>) {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const found = new Map<string, string>();
  const closing: GraphEdge[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    path.push(node);
    for (const next of targets.get(node)!) {
      if (state.get(next) === "open") {
        const loop = path.slice(path.indexOf(next));
        found.set([...loop].sort().join("\u0000"), [...loop, next].join(" → "));
        closing.push({ source: node, target: next });
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, "done");
  };
  nodes.forEach((n) => state.has(n) || visit(n));
  return { loops: [...found.values()], closing };
}

/** The nodes reachable from `starts` along the edges, the starts included. */
function reachable(starts: string[], targets: Map<string, string[]>): Set<string> {
  const seen = new Set(starts);
  const frontier = [...starts];
  while (frontier.length) {
    for (const next of targets.get(frontier.pop()!) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        frontier.push(next);
      }
    }
  }
  return seen;
}

/**
 * Everything wrong with a graph, each naming its node(s), all at once: missing or duplicate names,
 * edges and entry or end points naming no agent, cycles, entry points that have sources, and nodes
 * (end points first among them) that no entry point leads to. The checks of the graph's shape read
 * the edges between known nodes, without the edge closing each cycle found (as if the client had
 * broken the cycle there), and the known points, so a problem already named is not named again as
 * its consequence. Empty when the graph can run.
 */
export function graphProblems(graph: GraphShape): string[] {
  const { names, edges } = graph;
  const known = new Set(names.filter(Boolean));
  const nodes = [...known];
  const problems = nameProblems(names);
  edges.forEach(({ source, target }, i) => {
    if (!known.has(source)) problems.push(`edges[${i}].source '${source}' is not an agent of the graph`);
    if (!known.has(target)) problems.push(`edges[${i}].target '${target}' is not an agent of the graph`);
  });
  const points = { entry_points: graph.entry_points ?? [], end_points: graph.end_points ?? [] };
  for (const [field, given] of Object.entries(points)) {
    given.forEach((name, i) => {
      if (!known.has(name)) problems.push(`${field}[${i}] '${name}' is not an agent of the graph`);
    });
  }
  const { loops, closing } = cycles(nodes, adjacency(nodes, edges).targets);
  problems.push(...loops.map((loop) => `the edges form a cycle: ${loop}`));
  const closes = (e: GraphEdge) => closing.some((c) => c.source === e.source && c.target === e.target);
  const acyclic = {
    names: nodes,
    edges: edges.filter((e) => !closes(e)),
    entry_points: points.entry_points.filter((n) => known.has(n)),
    end_points: points.end_points.filter((n) => known.has(n)),
  };
  return [...problems, ...flowProblems(acyclic)];
}

/** What keeps a graph without cycles, its points all known, from running every node after its sources. */
function flowProblems(graph: GraphShape): string[] {
  const problems: string[] = [];
  const { sources, targets } = adjacency(graph.names, graph.edges);
  const { entryPoints, endPoints } = endsOf(graph, sources, targets);
  for (const entry of entryPoints) {
    const before = sources.get(entry)!;
    if (before.length) problems.push(`entry point '${entry}' has sources (${quoted(before)}): the task enters there`);
  }
  const reached = reachable(entryPoints, targets);
  const ends = new Set(endPoints);
  for (const node of [...endPoints, ...graph.names.filter((n) => !ends.has(n))]) {
    if (reached.has(node)) continue;
    const what = ends.has(node) ? "end point" : "node";
    problems.push(`${what} '${node}' cannot be reached from the entry points (${quoted(entryPoints)})`);
  }
  return problems;
}

/** The entry and end points: the client's, else the nodes without sources and those without targets. */
function endsOf(graph: GraphShape, sources: Map<string, string[]>, targets: Map<string, string[]>) {
  const given = (points?: string[] | null) => (points?.length ? [...new Set(points)] : null);
  return {
    entryPoints: given(graph.entry_points) ?? graph.names.filter((n) => !sources.get(n)!.length),
    endPoints: given(graph.end_points) ?? graph.names.filter((n) => !targets.get(n)!.length),
  };
}

/** The plan of a graph `graphProblems` finds nothing wrong with. */
export function planGraph(graph: GraphShape): GraphPlan {
  const { sources, targets } = adjacency(graph.names, graph.edges);
  return { nodes: graph.names, sources, ...endsOf(graph, sources, targets) };
}
