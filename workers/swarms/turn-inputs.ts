import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { agentName } from "../../shared/contracts/agent-tree";
import { contentText } from "../../shared/swarms/opening";

/**
 * The team as internal agents read it, one `- <name>: <description>` line per agent. An agent
 * without a description gets `undescribed` after its name, or its name alone when none is given.
 */
export function teamList(agents: readonly AgentSpec[], undescribed?: string): string {
  return agents
    .map((agent) => {
      const description = agent.description?.trim() || undescribed;
      return `- ${agentName(agent)}${description ? `: ${description}` : ""}`;
    })
    .join("\n");
}

/** Answers attributed to their agents, one `<name>: <content>` block each, in the order given. */
export function answersByAgent(names: readonly string[], contents: readonly unknown[]): string[] {
  return contents.map((content, i) => `${names[i]}: ${contentText(content)}`);
}
