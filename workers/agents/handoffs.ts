import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { agentBrief, agentName } from "../../shared/contracts/agent-tree";
import type { FunctionTool } from "./function-tools";

export const HANDOFF_TOOL = "handoff_to_agent";
/** Deeper delegation chains are refused: they multiply cost and rarely help. */
export const MAX_HANDOFF_DEPTH = 3;

export { agentName };

/** The delegation tool offered to an agent with `handoffs`: agent names are an enum of the real ones. */
export function handoffTool(handoffs: AgentSpec[]): FunctionTool {
  const team = handoffs.map((h) => `- ${agentName(h)}: ${agentBrief(h)?.slice(0, 200) ?? "no description"}`).join("\n");
  return {
    type: "function",
    function: {
      name: HANDOFF_TOOL,
      description: `Delegate a task to a member of your team and get their answer back. Call it several times at once to delegate in parallel.\nTeam:\n${team}`,
      parameters: {
        type: "object",
        properties: {
          agent_name: { type: "string", enum: handoffs.map(agentName), description: "Who should do the task" },
          task: { type: "string", description: "The task for that agent, complete and self-contained" },
        },
        required: ["agent_name", "task"],
        additionalProperties: false,
      },
    },
  };
}

/** Parses a handoff call's arguments; null when they do not name a team member and a task. */
export function parseHandoff(argumentsJson: string, handoffs: AgentSpec[]): { spec: AgentSpec; task: string } | null {
  try {
    const args = JSON.parse(argumentsJson) as { agent_name?: unknown; task?: unknown };
    const spec = handoffs.find((h) => agentName(h) === args.agent_name);
    return spec && typeof args.task === "string" && args.task.trim() ? { spec, task: args.task } : null;
  } catch {
    return null;
  }
}
