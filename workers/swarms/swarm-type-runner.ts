import type { SwarmTypeName } from "../../shared/swarms/swarm-catalog";
import type { SwarmRun } from "./swarm-run";

/** How one swarm type orchestrates its turns, as docs/swarm-types.md defines it. */
export interface SwarmTypeRunner<T extends SwarmTypeName = SwarmTypeName> {
  name: T;
  /** Runs the swarm and returns its `output` (usually `swarm.conversation.turns`). */
  run(swarm: SwarmRun): Promise<unknown>;
}

/** One runner per type of the catalog, each under its own name: a type without one does not compile. */
export type SwarmRunners = { [T in SwarmTypeName]: SwarmTypeRunner<T> };

/** How a type that runs another type (`auto`, AutoSwarmBuilder) finds that type's runner. */
export type RunnerOf = (type: SwarmTypeName) => SwarmTypeRunner;
