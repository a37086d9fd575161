import { config } from "../../shared/config";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { OMITTED_SWARM_FIELDS, type SwarmRequest } from "../../shared/contracts/swarm-request";
import type { RunEventWriter } from "../../shared/queues/run-events";
import { SwarmRun } from "./swarm-run";

/** What a workflow endpoint's run hands the swarm engine. */
interface WorkflowFields {
  /** The name agents' team notes give the workflow (e.g. `GraphWorkflow`). */
  type: string;
  name?: string | null;
  description?: string | null;
  agents: AgentSpec[];
  max_loops: number;
  task?: string | null;
  tasks?: string[] | null;
  img?: string | null;
  /** The client asked for the run's events as they happen. */
  stream?: boolean;
  /** Tell each agent about its team (false where the agents are one agent's roles). */
  multi_agent_collab_prompt?: boolean;
  /** The model the engine's own agents run on; the deployment's defaults when unset. */
  model_name?: string;
}

/**
 * The swarm engine (turns, step lanes and replay, budget, usage, parallel limit) for a run of an
 * endpoint other than the swarm's (a workflow's, a reasoning agent's): its fields as the swarm
 * request the engine reads, the rest of it at the swarm defaults, and its opening the task (or
 * nothing, for a grid whose rows are its tasks).
 */
export function workflowSwarm(fields: WorkflowFields, ctx: SwarmRun["ctx"], events: RunEventWriter | null): SwarmRun {
  const request: SwarmRequest = {
    name: fields.name,
    description: fields.description,
    agents: fields.agents,
    max_loops: fields.max_loops,
    swarm_type: fields.type,
    task: fields.task,
    tasks: fields.tasks,
    img: fields.img,
    ...OMITTED_SWARM_FIELDS,
    stream: fields.stream ?? OMITTED_SWARM_FIELDS.stream,
    multi_agent_collab_prompt: fields.multi_agent_collab_prompt ?? OMITTED_SWARM_FIELDS.multi_agent_collab_prompt,
    heavy_swarm_question_agent_model_name: fields.model_name ?? config.llm.defaultModel,
    heavy_swarm_worker_model_name: fields.model_name ?? config.llm.defaultWorkerModel,
  };
  return new SwarmRun(request, fields.agents, fields.task ?? "", fields.type, ctx, events, config.swarmMaxParallel);
}
