import type { SwarmRequest } from "../../../shared/contracts/swarm-request";
import { runsOncePerTask, SWARM_CATALOG, SWARM_TYPES, type SwarmTypeName } from "../../../shared/swarms/swarm-catalog";
import type { SwarmRun } from "../swarm-run";
import type { SwarmTypeRunner } from "../swarm-type-runner";

/**
 * The concrete types `auto` may choose and AutoSwarmBuilder may build for `request`, in catalog
 * order: available, not a type that runs another, and a type that reads `tasks` itself only when
 * the request has them and is not already run once per task (the grid would run inside every task).
 */
export function concreteTypes(request: SwarmRequest): SwarmTypeName[] {
  return SWARM_TYPES.filter((type) => {
    const record = SWARM_CATALOG[type];
    if (!record.available || record.runsAnotherType) return false;
    return !record.ownsTasks || (Boolean(request.tasks?.length) && !runsOncePerTask(request));
  });
}

/** One line per type, so a Selector or Builder knows what it is choosing between (the catalog's summaries). */
export function typeOptions(types: SwarmTypeName[]): string {
  return types.map((type) => `- ${type}: ${SWARM_CATALOG[type].summary}`).join("\n");
}

/** Runs the chosen type as `chosen` and returns this run's turns so far followed by the chosen run's output. */
export async function runChosenType(swarm: SwarmRun, runner: SwarmTypeRunner, chosen: SwarmRun): Promise<unknown[]> {
  const output = await runner.run(chosen);
  return [...swarm.conversation.turns, ...(Array.isArray(output) ? output : [output])];
}
