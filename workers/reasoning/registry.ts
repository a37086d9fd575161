import type { ReasoningTypeName } from "../../shared/contracts/reasoning-request";
import type { ReasoningTypeRunner } from "./reasoning-run";
import { agentJudge } from "./types/agent-judge";
import { gkpAgent } from "./types/gkp-agent";
import { ire } from "./types/ire";
import { reasoningDuo } from "./types/reasoning-duo";
import { reflexionAgent } from "./types/reflexion-agent";
import { selfConsistency } from "./types/self-consistency";

/** One runner per reasoning type, each under its own name: a type without one does not compile. */
export const reasoningRunners: { [T in ReasoningTypeName]: ReasoningTypeRunner<T> } = {
  "reasoning-duo": reasoningDuo,
  "self-consistency": selfConsistency,
  ire,
  ReflexionAgent: reflexionAgent,
  GKPAgent: gkpAgent,
  AgentJudge: agentJudge,
};
