import type { AgentCompletionRequest, AgentSpec } from "../contracts/agent-spec";
import type { SwarmRequest } from "../contracts/swarm-request";
import { RUN_KIND_CATALOG, type PlannedStepsRule, type RunKind } from "../runs/run-kind-catalog";
import { chosenBuiltinTool } from "../tools/builtin-tools";
import { runsOncePerTask } from "./swarm-catalog";

/** Swarm types whose schedule is fixed: every agent takes one turn per swarm loop. */
const EVERY_AGENT_EACH_LOOP = new Set(["SequentialWorkflow", "ConcurrentWorkflow"]);

/**
 * The LLM calls one turn of `agent` makes, when they are known beforehand: `max_loops` for an
 * agent without tools, MCP servers, handoffs or a generated prompt (those add calls the model
 * decides on); null otherwise.
 */
function callsPerTurn(agent: AgentSpec): number | null {
  const generatesPrompt = agent.auto_generate_prompt && !agent.marketplace_prompt_id;
  const tools =
    Boolean(agent.tools_list_dictionary?.length) ||
    Boolean(agent.mcp_url) ||
    Boolean(agent.mcp_config) ||
    Boolean(agent.mcp_configs?.connections?.length) ||
    Boolean(agent.handoffs?.length);
  const loops = agent.max_loops;
  return generatesPrompt || tools || !Number.isInteger(loops) || loops < 1 ? null : loops;
}

function swarmSteps(request: SwarmRequest): number | null {
  if (!EVERY_AGENT_EACH_LOOP.has(request.swarm_type) || !request.agents?.length) return null;
  let perLoop = 0;
  for (const agent of request.agents) {
    const calls = callsPerTurn(agent);
    if (calls === null) return null;
    perLoop += calls;
  }
  const runs = runsOncePerTask(request) ? request.tasks!.length : 1;
  return perLoop * request.max_loops * runs;
}

/** A workflow's steps: every agent's turn once per loop, per task for a grid (`tasks`), when each turn's calls are known. */
function workflowSteps(request: { agents?: AgentSpec[]; tasks?: string[]; max_loops?: number }): number | null {
  let perLoop = 0;
  for (const agent of request.agents ?? []) {
    const calls = callsPerTurn(agent);
    if (calls === null) return null;
    perLoop += calls;
  }
  return perLoop * (request.tasks?.length ?? 1) * (request.max_loops ?? 1) || null;
}

/** An agent run's steps: a plain agent's turn, unless a built-in tool (`tools_enabled`) adds the calls the model decides on. */
function agentSteps(request: AgentCompletionRequest): number | null {
  if (chosenBuiltinTool(request.tools_enabled)) return null;
  return request.agent_config ? callsPerTurn(request.agent_config) : null;
}

/** Each rule of the run-kind catalog (`RunKindRecord.steps`), applied to a stored request. */
const RULES: Record<PlannedStepsRule, (request: never) => number | null> = {
  agent: agentSteps,
  swarm: swarmSteps,
  workflow: workflowSteps,
  one_call: () => 1,
  unplanned: () => null,
};

/**
 * How many steps (LLM and tool calls) a run will take, when its kind and request make that
 * certain: an agent run of a plain agent, the swarm types with a fixed schedule
 * (SequentialWorkflow: agents × loops), and the workflows (a graph's nodes × loops, a grid's
 * cells × loops), as the kind's catalog entry says. Null when the model's own choices decide it
 * (tools, handoffs, routers, judges, `auto`) or the kind has no steps of its own. Progress shows
 * it as the total; the worker's count of finished steps is the done part.
 */
export function plannedSteps(kind: RunKind, request: unknown): number | null {
  if (!request || typeof request !== "object") return null;
  const rule = RUN_KIND_CATALOG[kind].steps;
  return rule === null ? null : RULES[rule](request as never);
}
