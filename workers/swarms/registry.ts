import type { SwarmTypeName } from "../../shared/swarms/swarm-catalog";
import type { SwarmType } from "./swarm-type";
import { agentRearrange } from "./types/agent-rearrange";
import { batchedGridWorkflow } from "./types/batched-grid-workflow";
import { concurrentWorkflow } from "./types/concurrent-workflow";
import { debateWithJudge } from "./types/debate-with-judge";
import { groupChat } from "./types/group-chat";
import { majorityVoting } from "./types/majority-voting";
import { mixtureOfAgents } from "./types/mixture-of-agents";
import { roundRobin } from "./types/round-robin";
import { sequentialWorkflow } from "./types/sequential-workflow";

/** Swarm type name → implementation, spelled out (no folder scanning). */
export const swarmTypes: Partial<Record<SwarmTypeName, SwarmType>> = {
  SequentialWorkflow: sequentialWorkflow,
  AgentRearrange: agentRearrange,
  ConcurrentWorkflow: concurrentWorkflow,
  MixtureOfAgents: mixtureOfAgents,
  GroupChat: groupChat,
  RoundRobin: roundRobin,
  MajorityVoting: majorityVoting,
  DebateWithJudge: debateWithJudge,
  BatchedGridWorkflow: batchedGridWorkflow,
};
