import type { AgentSpec, HistoryMessage } from "../../shared/contracts/agent-spec";
import { chatCompletion, type ChatMessage, type ChatRequest } from "../../shared/llm/chat";
import { tokenCosts } from "../../shared/llm/pricing";
import { resolveModel } from "../../shared/llm/providers";
import { historyMessages, REVIEW_PROMPT, systemMessage, userMessage } from "./messages";
import type { StepRecorder } from "./step-recorder";

/** What an agent is asked to do in one run. */
export interface AgentInput {
  task: string;
  history?: HistoryMessage[] | Record<string, unknown> | null;
  images?: string[];
}

/** An agent's final answer and what producing it cost. */
export interface AgentResult {
  agentName: string;
  content: string;
  inputTokens: number;
  outputTokens: number;
  llmCalls: number;
  images: number;
}

/** Body fields the service owns; `llm_args` may add provider options but never replace these. */
const RESERVED_FIELDS = new Set(["model", "messages", "tools", "tool_choice", "stream"]);

function providerArgs(spec: AgentSpec): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec.llm_args ?? {})) if (!RESERVED_FIELDS.has(key)) args[key] = value;
  return args;
}

/** The display name of an agent, also used to attribute its turns. */
export function agentName(spec: AgentSpec): string {
  return spec.agent_name?.trim() || "Agent";
}

/**
 * Runs one agent on one task: a system prompt and the task, then `max_loops − 1` review turns in
 * which the agent improves its own previous answer (earlier answers stay in its context). Each LLM
 * call is a recorded step, so a retried job resumes where the crashed one stopped.
 */
export async function runAgent(spec: AgentSpec, input: AgentInput, recorder: StepRecorder, signal?: AbortSignal): Promise<AgentResult> {
  const name = agentName(spec);
  const target = resolveModel(spec.model_name);
  const images = input.images ?? [];
  const messages: ChatMessage[] = [
    ...[systemMessage(spec)].filter((m): m is ChatMessage => m !== null),
    ...historyMessages(input.history),
    userMessage(input.task, images),
  ];
  const result: AgentResult = { agentName: name, content: "", inputTokens: 0, outputTokens: 0, llmCalls: 0, images: images.length };

  for (let loop = 0; loop < spec.max_loops; loop++) {
    if (loop > 0) messages.push({ role: "user", content: REVIEW_PROMPT });
    const request: ChatRequest = {
      ...providerArgs(spec),
      messages: [...messages],
      max_tokens: spec.max_tokens,
      ...(spec.temperature != null ? { temperature: spec.temperature } : {}),
    };
    const outcome = await recorder.step(
      { agentName: name, role: spec.role, model: spec.model_name, input: { loop: loop + 1 } },
      async () => {
        const reply = await chatCompletion(target, request, signal);
        const { inputCost, outputCost } = tokenCosts(reply.inputTokens, reply.outputTokens);
        return { output: reply.message.content ?? "", inputTokens: reply.inputTokens, outputTokens: reply.outputTokens, cost: inputCost + outputCost };
      },
    );
    const content = typeof outcome.output === "string" ? outcome.output : JSON.stringify(outcome.output);
    messages.push({ role: "assistant", content });
    result.content = content;
    result.inputTokens += outcome.inputTokens;
    result.outputTokens += outcome.outputTokens;
    result.llmCalls++;
  }
  return result;
}
