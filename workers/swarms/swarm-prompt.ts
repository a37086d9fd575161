import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { agentName } from "../agents/handoffs";

/** An agent's own prompt: its system prompt, else a line naming it (and its description). */
export function ownPrompt(spec: Pick<AgentSpec, "agent_name" | "system_prompt" | "description">): string {
  return spec.system_prompt?.trim() || [`You are ${agentName(spec)}.`, spec.description].filter(Boolean).join(" ");
}

/**
 * An agent's system prompt inside a swarm: its own prompt, then a "Swarm rules" block when the
 * swarm has `rules` or a `description`, then a one-line note naming the swarm and the agent's place.
 */
export function swarmSystemPrompt(
  spec: AgentSpec,
  request: SwarmRequest,
  swarmType: string,
  team: string[],
  role?: string,
): string {
  const name = agentName(spec);
  const own = ownPrompt(spec);
  const rules = [
    request.description && `Swarm purpose: ${request.description}`,
    request.rules && `Rules: ${request.rules}`,
  ].filter(Boolean);
  const others = team.filter((member) => member !== name);
  const place = role ?? (others.length ? `working with ${others.join(", ")}` : "working alone");
  const note = `You are ${name}, an agent of the ${swarmType} swarm${request.name ? ` '${request.name}'` : ""}, ${place}.`;
  return [own, rules.length ? `Swarm rules:\n${rules.join("\n")}` : null, note].filter(Boolean).join("\n\n");
}
