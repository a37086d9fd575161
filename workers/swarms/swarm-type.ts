import type { SwarmTypeName } from "../../shared/swarms/swarm-catalog";
import type { SwarmRun } from "./swarm-run";

/** One swarm type: how it orchestrates turns, as SWARM-TYPES.md defines it. */
export interface SwarmType {
  name: SwarmTypeName;
  /** Runs the swarm and returns its `output` (usually `swarm.conversation.turns`). */
  run(swarm: SwarmRun): Promise<unknown>;
}
