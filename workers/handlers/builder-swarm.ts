import { config } from "../../shared/config";
import type { RunBudgetRequest } from "../../shared/contracts/agent-spec";
import { OMITTED_SWARM_FIELDS } from "../../shared/contracts/swarm-request";
import type { UsageCounter } from "../agents/agent-context";
import type { RunBudget } from "../agents/run-budget";
import type { StepRecorder } from "../agents/step-recorder";
import { SwarmRun } from "../swarms/swarm-run";

/** What a builder request (`auto_swarm_builder`, `agent_generate`) says about the swarm the Builder works in. */
interface BuilderRequest {
  name?: string | null;
  description?: string | null;
  task: string;
  model_name: string;
  max_loops?: number;
  budget?: RunBudgetRequest;
}

/** The run-wide pieces a builder run's Builder calls are recorded, budgeted and counted with. */
interface BuilderEnv {
  recorder: StepRecorder;
  budget: RunBudget;
  usage: UsageCounter;
  signal: AbortSignal;
}

/**
 * The swarm the Builder designs in, for the builder endpoints: an AutoSwarmBuilder swarm without
 * request agents, whose opening is the task, so a design is checked against the same request
 * rules (and recorded, budgeted and billed the same way) as the AutoSwarmBuilder swarm type's.
 * Nothing is streamed: the endpoints answer with one structured result.
 */
export function builderSwarm(request: BuilderRequest, env: BuilderEnv): SwarmRun {
  return new SwarmRun(
    {
      name: request.name ?? null,
      description: request.description ?? null,
      task: request.task,
      agents: [],
      swarm_type: "AutoSwarmBuilder",
      max_loops: request.max_loops ?? 1,
      ...OMITTED_SWARM_FIELDS,
      // The Builder works alone: no team to collaborate with.
      multi_agent_collab_prompt: false,
      heavy_swarm_question_agent_model_name: request.model_name,
      heavy_swarm_worker_model_name: request.model_name,
      budget: request.budget,
    },
    [],
    request.task,
    "AutoSwarmBuilder",
    env,
    null,
    config.swarmMaxParallel,
  );
}
