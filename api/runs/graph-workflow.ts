import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { GraphEdge, GraphWorkflowRequest } from "../../shared/contracts/workflows";
import { BadRequestError } from "../../shared/errors";
import { withholdSwarmSecrets } from "../../shared/secrets/run-secrets";
import { graphProblems } from "../../shared/swarms/graph-plan";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { completeRun, type CompletionKind } from "./complete-run";
import { presentGraphWorkflow } from "../../shared/runs/presenters/workflow.presenter";
import type { RunHooks } from "./ready-agents";
import { imageUrls } from "./request-egress";
import { effectiveBudget } from "./run-budget";
import { assertAgentModelsServable } from "./run-models";
import type { Prefer } from "../spine/prefer";
import { neverStreams } from "./workflow-stream";

/** The body as validated: names and points may still carry spaces, fields may be null. */
export type GraphWorkflowBody = Omit<GraphWorkflowRequest, "entry_points" | "end_points"> & {
  entry_points?: string[] | null;
  end_points?: string[] | null;
};

const trimmed = (names?: string[] | null) => (names ?? []).map((n) => n.trim());

/** With several loops `outputs` also keys `<name>_loop_<n>`: a node named so would lose its own output. */
function loopKeyClashes(names: string[], loops: number): string[] {
  if (loops < 2) return [];
  const known = new Set(names);
  return names.flatMap((name) => {
    const [, node, n] = /^(.*)_loop_(\d+)$/.exec(name) ?? [];
    return node !== undefined && known.has(node) && Number(n) >= 1 && Number(n) <= loops
      ? [`'${name}' is the outputs key of loop ${n} of '${node}' (max_loops ${loops}): rename the agent`]
      : [];
  });
}

/**
 * The request to store: only the fields the workflow reads (so nothing else a client sends, such
 * as `stream`, changes how it runs), names trimmed, points given or computed at run time, and the
 * budget filled in for the caller's tier. 400 naming every problem of the graph at once.
 */
function prepareGraph(body: GraphWorkflowBody, owner: KeyOwner): GraphWorkflowRequest {
  const agents: AgentSpec[] = body.agents.map((agent) => ({ ...agent, agent_name: agent.agent_name?.trim() ?? "" }));
  const edges: GraphEdge[] = (body.edges ?? []).map(({ source, target, metadata }) => ({
    source: source.trim(),
    target: target.trim(),
    ...(metadata ? { metadata } : {}),
  }));
  const request: GraphWorkflowRequest = {
    name: body.name ?? null,
    description: body.description ?? null,
    agents,
    edges,
    entry_points: trimmed(body.entry_points),
    end_points: trimmed(body.end_points),
    max_loops: body.max_loops,
    task: body.task,
    img: body.img || null,
    auto_compile: body.auto_compile,
    verbose: body.verbose,
    budget: effectiveBudget(body.budget, owner.tier),
  };
  const names = agents.map((a) => a.agent_name ?? "");
  const problems = [...graphProblems({ ...request, names }), ...loopKeyClashes(names, request.max_loops)];
  if (problems.length) throw new BadRequestError(problems.join("; "), {}, "INVALID_WORKFLOW");
  assertAgentModelsServable(agents, (i) => `agents[${i}]`);
  return request;
}

/** The graph workflow, stored as a `graph_workflow` run and run by the `graph-workflow` job. */
const graphWorkflowCompletion: CompletionKind<GraphWorkflowRequest, "graph_workflow", GraphWorkflowBody> = {
  kind: "graph_workflow",
  prepare: prepareGraph,
  agentsOf: (request) => ({ specs: request.agents, images: imageUrls(request) }),
  withAgents: (request, agents) => ({ ...request, agents }),
  withholdSecrets: withholdSwarmSecrets,
  streamFormat: neverStreams,
  present: presentGraphWorkflow,
};

/**
 * `POST /v1/graph-workflow/completions`: checks the graph (400 naming the node(s) before any LLM
 * call), queues it, answers when it ends (or 202 with `Prefer: respond-async`).
 */
export function completeGraphWorkflow(
  deps: ApiDeps,
  body: GraphWorkflowBody,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, graphWorkflowCompletion, body, owner, prefer, hooks);
}
