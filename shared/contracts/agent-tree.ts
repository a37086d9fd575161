import type { AgentSpec } from "./agent-spec";

/** The display name of an agent, also used to attribute its turns and to name it as a handoff. */
export function agentName(spec: Pick<AgentSpec, "agent_name">): string {
  return spec.agent_name?.trim() || "Agent";
}

/**
 * What other agents and calls may be told about an agent: its description, else its own system
 * prompt. A marketplace prompt is never used this way: its text is what its buyers pay for, and
 * it may only ever be that agent's own system prompt.
 */
export function agentBrief(
  spec: Pick<AgentSpec, "description" | "system_prompt" | "marketplace_prompt_id">,
): string | null {
  const description = spec.description?.trim();
  if (description) return description;
  if (spec.marketplace_prompt_id?.trim()) return null;
  return spec.system_prompt?.trim() || null;
}

/** An agent spec's handoffs, as agent specs (they are agents in their own right). */
function handoffsOf(spec: AgentSpec): AgentSpec[] {
  return (spec.handoffs ?? []) as AgentSpec[];
}

/**
 * Every agent of a request, handoffs included, depth first in request order, each with where it
 * sits in the request (`agents[1].handoffs[0]`), for messages that must name the agent.
 */
export function everyAgent(
  specs: AgentSpec[],
  where: (i: number) => string = (i) => `agents[${i}]`,
): { spec: AgentSpec; where: string }[] {
  return specs.flatMap((spec, i) => [
    { spec, where: where(i) },
    ...everyAgent(handoffsOf(spec), (j) => `${where(i)}.handoffs[${j}]`),
  ]);
}

/** The agent with `f` applied to it and, the same way, to each of its handoffs. */
export function mapAgentTree(spec: AgentSpec, f: (spec: AgentSpec) => AgentSpec): AgentSpec {
  const mapped = f(spec);
  return spec.handoffs ? { ...mapped, handoffs: handoffsOf(spec).map((h) => mapAgentTree(h, f)) } : mapped;
}
