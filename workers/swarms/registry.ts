import type { SwarmTypeName } from "../../shared/swarms/swarm-catalog";
import type { SwarmType } from "./swarm-type";
import { agentRearrange } from "./types/agent-rearrange";
import { concurrentWorkflow } from "./types/concurrent-workflow";
import { sequentialWorkflow } from "./types/sequential-workflow";

/** Swarm type name → implementation, spelled out (no folder scanning). */
export const swarmTypes: Partial<Record<SwarmTypeName, SwarmType>> = {
  SequentialWorkflow: sequentialWorkflow,
  AgentRearrange: agentRearrange,
  ConcurrentWorkflow: concurrentWorkflow,
};
