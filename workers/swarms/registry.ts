import type { SwarmTypeName } from "../../shared/swarms/swarm-catalog";
import type { SwarmRunners, SwarmTypeRunner } from "./swarm-type-runner";
import { agentRearrange } from "./types/agent-rearrange";
import { autoRunner } from "./types/auto";
import { autoSwarmBuilderRunner } from "./types/auto-swarm-builder";
import { batchedGridWorkflow } from "./types/batched-grid-workflow";
import { concurrentWorkflow } from "./types/concurrent-workflow";
import { councilAsAJudge } from "./types/council-as-a-judge";
import { debateWithJudge } from "./types/debate-with-judge";
import { deepResearchSwarm } from "./types/deep-research-swarm";
import { groupChat } from "./types/group-chat";
import { hierarchicalSwarm } from "./types/hierarchical-swarm";
import { interactiveGroupChat } from "./types/interactive-group-chat";
import { heavySwarm } from "./types/heavy-swarm";
import { llmCouncil } from "./types/llm-council";
import { majorityVoting } from "./types/majority-voting";
import { malt } from "./types/malt";
import { mixtureOfAgents } from "./types/mixture-of-agents";
import { multiAgentRouter } from "./types/multi-agent-router";
import { plannerWorkerSwarm } from "./types/planner-worker-swarm";
import { roundRobin } from "./types/round-robin";
import { sequentialWorkflow } from "./types/sequential-workflow";

/** The runner of a type, read when it is needed (so `auto` runs whatever this registry holds then). */
function runnerOf(type: SwarmTypeName): SwarmTypeRunner {
  return swarmRunners[type];
}

/**
 * Every swarm type of the catalog → its runner, spelled out (no folder scanning, no registration
 * by side effect). The types that run another type are given the lookup instead of importing this
 * module, which keeps the import graph free of cycles.
 */
export const swarmRunners: SwarmRunners = {
  AgentRearrange: agentRearrange,
  MixtureOfAgents: mixtureOfAgents,
  SequentialWorkflow: sequentialWorkflow,
  ConcurrentWorkflow: concurrentWorkflow,
  GroupChat: groupChat,
  MultiAgentRouter: multiAgentRouter,
  AutoSwarmBuilder: autoSwarmBuilderRunner(runnerOf),
  HierarchicalSwarm: hierarchicalSwarm,
  auto: autoRunner(runnerOf),
  MajorityVoting: majorityVoting,
  CouncilAsAJudge: councilAsAJudge,
  HeavySwarm: heavySwarm,
  BatchedGridWorkflow: batchedGridWorkflow,
  LLMCouncil: llmCouncil,
  DebateWithJudge: debateWithJudge,
  RoundRobin: roundRobin,
  PlannerWorkerSwarm: plannerWorkerSwarm,
  MALT: malt,
  DeepResearchSwarm: deepResearchSwarm,
  InteractiveGroupChat: interactiveGroupChat,
};
