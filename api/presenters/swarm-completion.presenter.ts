import type { SwarmRequest, SwarmRunOutput } from "../../shared/contracts/swarm-request";
import type { Run } from "../../shared/db/entities/run.entity";

/** The spec's SwarmResponse (plus `service_tier`), built from a succeeded run. */
export function presentSwarmCompletion(run: Run) {
  const request = run.request as SwarmRequest;
  const stored = run.output as SwarmRunOutput;
  return {
    job_id: run.job_id,
    status: "success",
    swarm_name: request.name ?? null,
    description: request.description ?? null,
    swarm_type: stored.swarm_type,
    output: stored.output,
    number_of_agents: stored.number_of_agents,
    service_tier: run.service_tier,
    execution_time: run.execution_time,
    usage: run.usage,
  };
}
