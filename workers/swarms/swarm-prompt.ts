import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { SwarmRequest } from "../../shared/contracts/swarm-request";
import { agentName } from "../agents/handoffs";

/** An agent's own prompt: its system prompt, else a line naming it (and its description). */
export function ownPrompt(spec: Pick<AgentSpec, "agent_name" | "system_prompt" | "description">): string {
  return spec.system_prompt?.trim() || [`You are ${agentName(spec)}.`, spec.description].filter(Boolean).join(" ");
}

/**
 * An agent's system prompt inside a swarm: its own prompt, the collaboration prompt (unless
 * `multi_agent_collab_prompt` is false), the team roster (with `list_all_agents`), a "Swarm rules"
 * block when the swarm has `rules` or a `description`, then a one-line note naming the swarm and the agent's place.
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
  return [
    own,
    request.multi_agent_collab_prompt === false ? null : COLLABORATION_PROMPT,
    request.list_all_agents ? teamRoster(request, team) : null,
    rules.length ? `Swarm rules:\n${rules.join("\n")}` : null,
    note,
  ]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * `multi_agent_collab_prompt` (on unless the request sets it false): how an agent of a team should
 * work with the others, whatever the swarm type.
 */
export const COLLABORATION_PROMPT = [
  "Collaboration: you are one agent of a team working on the same task.",
  "Build on what the other agents have already done instead of repeating it, keep to your own part,",
  "say plainly where you disagree or are unsure and why, and give results the next agent can use as they are.",
].join(" ");

/**
 * `list_all_agents`: every agent of the team with its description, so each knows who the others
 * are. The request's agents when it has any (their descriptions), else the team's names (built-in agents).
 */
function teamRoster(request: SwarmRequest, team: string[]): string {
  const agents = request.agents?.length
    ? request.agents.map((agent) => `- ${agentName(agent)}: ${agent.description?.trim() || "(no description)"}`)
    : team.map((member) => `- ${member}`);
  return `The team's agents:\n${agents.join("\n")}`;
}
