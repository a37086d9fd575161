import type { SwarmTypeName } from "../../shared/swarms/swarm-catalog";
import type { SwarmType } from "./swarm-type";
import { registerSwarmTypes } from "./type-lookup";
import { agentRearrange } from "./types/agent-rearrange";
import { auto } from "./types/auto";
import { autoSwarmBuilder } from "./types/auto-swarm-builder";
import { batchedGridWorkflow } from "./types/batched-grid-workflow";
import { concurrentWorkflow } from "./types/concurrent-workflow";
import { councilAsAJudge } from "./types/council-as-a-judge";
import { debateWithJudge } from "./types/debate-with-judge";
import { groupChat } from "./types/group-chat";
import { hierarchicalSwarm } from "./types/hierarchical-swarm";
import { heavySwarm } from "./types/heavy-swarm";
import { llmCouncil } from "./types/llm-council";
import { majorityVoting } from "./types/majority-voting";
import { mixtureOfAgents } from "./types/mixture-of-agents";
import { multiAgentRouter } from "./types/multi-agent-router";
import { plannerWorkerSwarm } from "./types/planner-worker-swarm";
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
  HierarchicalSwarm: hierarchicalSwarm,
  PlannerWorkerSwarm: plannerWorkerSwarm,
  CouncilAsAJudge: councilAsAJudge,
  HeavySwarm: heavySwarm,
  LLMCouncil: llmCouncil,
  MultiAgentRouter: multiAgentRouter,
  auto,
  AutoSwarmBuilder: autoSwarmBuilder,
};

registerSwarmTypes(Object.values(swarmTypes) as SwarmType[]);
