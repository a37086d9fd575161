import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { ChatMessage } from "../../shared/llm/chat";

/**
 * The request that writes an agent's system prompt (`auto_generate_prompt`): the agent's name,
 * description and any prompt it has become the brief.
 */
export function autoPromptMessages(spec: AgentSpec, name: string): ChatMessage[] {
  const brief = [
    `Agent name: ${name}`,
    spec.description ? `Description: ${spec.description}` : null,
    spec.system_prompt ? `Draft instructions: ${spec.system_prompt}` : null,
    spec.role ? `Role: ${spec.role}` : null,
  ].filter(Boolean);
  return [
    {
      role: "system",
      content:
        "You write system prompts for AI agents. Given an agent's brief, write one clear, specific system prompt in the second person: its purpose, how it works, the quality bar and the output format. Reply with the prompt only.",
    },
    { role: "user", content: brief.join("\n") },
  ];
}
