import type { DesignedSwarm } from "../../shared/contracts/auto-swarm-builder";
import type { AutoSwarmBuilderRun } from "../../shared/db/entities/run.entity";
import { designSwarm } from "../swarms/builder/design-swarm";
import { swarmUsage } from "../swarms/swarm-usage";
import { builderSwarm } from "./builder-swarm";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";

/**
 * `POST /v1/auto-swarm-builder/completions`: the Builder designs a swarm for the task (validated,
 * repaired once) and the run stores the design; the API renders it by `execution_type`. Nothing
 * runs the designed swarm here: `return-swarm-router-config` is the body that runs it.
 */
export const handleAutoSwarmBuilder: Handler<"auto-swarm-builder"> = ({ runId }, ctx) =>
  executeRun<AutoSwarmBuilderRun>(runId, ctx, {
    kind: "auto_swarm_builder",
    async execute({ run, recorder, budget, usage, signal }) {
      const request = run.request;
      const swarm = builderSwarm(request, { recorder, budget, usage, signal });
      const { spec, agents } = await designSwarm(swarm, {
        model: request.model_name,
        maxTokens: request.max_tokens,
        builderMaxTokens: request.max_tokens,
        wanted: { name: request.name, description: request.description },
      });
      // The client's name and description win over the Builder's, as they do for a swarm it runs.
      const designed: DesignedSwarm = {
        name: request.name?.trim() || spec.name,
        description: request.description?.trim() || spec.description,
        swarm_type: spec.swarm_type,
        rearrange_flow: spec.rearrange_flow,
        rules: spec.rules,
        agents,
      };
      return {
        output: { swarm: designed },
        usage: swarmUsage(usage, run.service_tier, new Date()),
        log: { execution_type: request.execution_type, built: spec.swarm_type, agents: agents.length },
      };
    },
    usageSoFar: ({ run, usage }) => swarmUsage(usage, run.service_tier, new Date()),
    failedAgent: (err) => (err as { agent?: string }).agent,
  });
