import type { KeyOwner } from "../../shared/auth/api-keys";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { BatchedGridWorkflowRequest } from "../../shared/contracts/workflows";
import { BadRequestError } from "../../shared/errors";
import { withholdSwarmSecrets } from "../../shared/secrets/run-secrets";
import { swarmAgentNames } from "../../shared/swarms/request-checks";
import type { ApiDeps } from "../deps";
import type { Outcome } from "../reply";
import { completeRun, type CompletionKind } from "./complete-run";
import { presentBatchedGridWorkflow } from "../../shared/runs/presenters/workflow.presenter";
import type { RunHooks } from "./ready-agents";
import { imageUrls } from "./request-egress";
import { effectiveBudget } from "./run-budget";
import { assertAgentModelsServable } from "./run-models";
import type { Prefer } from "../spine/prefer";
import { neverStreams } from "./workflow-stream";

/** Most cells (agents × tasks) of a grid: each is at least one LLM call per loop. */
const GRID_MAX_CELLS = 1_000;

/** The body as validated: the hosted API's field names. */
export type BatchedGridWorkflowBody = Omit<BatchedGridWorkflowRequest, "agents"> & { agent_completions: AgentSpec[] };

/** What makes a grid unrunnable, all at once: duplicate agent names, too many cells, more images than tasks. */
function gridProblems(names: string[], tasks: string[], imgs: string[]): string[] {
  const problems: string[] = [];
  names.forEach((name, i) => {
    const first = names.indexOf(name);
    if (first !== i)
      problems.push(
        `agent_completions[${i}] has the name of agent_completions[${first}] ('${name}'): outputs are keyed by agent name`,
      );
  });
  if (names.length * tasks.length > GRID_MAX_CELLS)
    problems.push(
      `the grid has ${names.length} agents × ${tasks.length} tasks = ${names.length * tasks.length} cells; at most ${GRID_MAX_CELLS}`,
    );
  if (imgs.length > tasks.length)
    problems.push(`imgs has ${imgs.length} images for ${tasks.length} tasks: imgs[i] goes with tasks[i]`);
  return problems;
}

/**
 * The request to store: `agent_completions` as `agents`, each named (`Agent <n>` when nameless),
 * only the fields the grid reads, and the budget filled in for the caller's tier.
 */
function prepareGrid(body: BatchedGridWorkflowBody, owner: KeyOwner): BatchedGridWorkflowRequest {
  const names = swarmAgentNames({ agents: body.agent_completions });
  const agents = body.agent_completions.map((agent, i) => ({ ...agent, agent_name: names[i] }));
  const imgs = body.imgs ?? [];
  const problems = gridProblems(names, body.tasks, imgs);
  if (problems.length) throw new BadRequestError(problems.join("; "), {}, "INVALID_WORKFLOW");
  assertAgentModelsServable(agents, (i) => `agent_completions[${i}]`);
  return {
    name: body.name ?? null,
    description: body.description ?? null,
    agents,
    tasks: body.tasks,
    imgs: imgs.length ? imgs : null,
    max_loops: body.max_loops,
    budget: effectiveBudget(body.budget, owner.tier),
  };
}

/** The grid, stored as a `batched_grid_workflow` run and run by the `batched-grid-workflow` job. */
const batchedGridWorkflowCompletion: CompletionKind<
  BatchedGridWorkflowRequest,
  "batched_grid_workflow",
  BatchedGridWorkflowBody
> = {
  kind: "batched_grid_workflow",
  prepare: prepareGrid,
  agentsOf: (request) => ({
    specs: request.agents,
    images: imageUrls(request),
    where: (i) => `agent_completions[${i}]`,
  }),
  withAgents: (request, agents) => ({ ...request, agents }),
  withholdSecrets: withholdSwarmSecrets,
  streamFormat: neverStreams,
  present: presentBatchedGridWorkflow,
};

/**
 * `POST /v1/batched-grid-workflow/completions`: every agent on every task, as the
 * BatchedGridWorkflow swarm type runs it; answers per task, keyed by agent.
 */
export function completeBatchedGridWorkflow(
  deps: ApiDeps,
  body: BatchedGridWorkflowBody,
  owner: KeyOwner,
  prefer: Prefer,
  hooks: RunHooks = {},
): Promise<Outcome> {
  return completeRun(deps, batchedGridWorkflowCompletion, body, owner, prefer, hooks);
}
