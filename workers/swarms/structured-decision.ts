import type OpenAI from "openai";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { ChatMessage } from "../../shared/llm/chat";
import { resolveModel } from "../../shared/llm/providers";
import { AppError } from "../../shared/errors";
import type { FunctionTool } from "../agents/function-tools";
import { buildChatRequest } from "../agents/llm-request";
import { modelFamily } from "../agents/model-family";
import { estimatePromptTokens } from "../agents/prompt-estimate";
import { inFlightCall, recordedLlmCall, type AssistantMessage } from "../agents/recorded-llm-call";
import { callerCharge } from "../agents/run-charges";
import { internalAgentSpec } from "./internal-agent";
import type { SwarmRun } from "./swarm-run";
import { boundedProblem } from "./decision-problems";

/** Who makes a decision: an internal agent (or a request agent acting as one). */
export interface DecisionMaker {
  name: string;
  model: string;
  systemPrompt: string;
  /**
   * The spec the decision runs on: a request agent acting in a job passes its own (temperature,
   * output limit, reasoning, `llm_args`); without one, an internal agent's defaults.
   */
  spec?: AgentSpec;
}

/** `who` with its decision's output limit set, when the caller sets one (its own otherwise). */
export function withMaxTokens(who: DecisionMaker & { spec: AgentSpec }, maxTokens?: number | null): DecisionMaker {
  return maxTokens ? { ...who, spec: { ...who.spec, max_tokens: maxTokens } } : who;
}

/** The function the model must call; `parameters` is a JSON schema built by the caller. */
export interface DecisionTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Checks a decision the schema alone cannot: returns what is wrong, or null when it is valid. */
export type DecisionValidator = (value: unknown) => string | null;

/** Whether a decision's parsed value is a JSON object (not null, not a list): what validators check first. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A decision that stayed invalid after the repair attempt: the run fails naming the agent. */
export class DecisionError extends AppError {
  constructor(
    readonly agent: string,
    tool: string,
    problem: string,
  ) {
    super(
      500,
      "DECISION_INVALID",
      `${agent} gave an invalid ${tool} decision twice (after one repair attempt): ${problem}`,
      { agent },
    );
  }
}

type FunctionCall = OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;

/** Calls per decision: the first answer and one repair. */
const ATTEMPTS = 2;

/** The forced call's arguments, parsed, or what is wrong with them. */
function readCall(message: AssistantMessage, tool: string): { call?: FunctionCall; value?: unknown; problem?: string } {
  const call = message.tool_calls?.find((c): c is FunctionCall => c.type === "function" && c.function.name === tool);
  if (!call) return { problem: `no call of the function '${tool}' was made` };
  try {
    return { call, value: JSON.parse(call.function.arguments) };
  } catch {
    return { call, problem: "the arguments are not valid JSON" };
  }
}

/**
 * Asks `who` for a structured decision (docs/swarm-types.md, "Common rules"): a forced
 * function-tool call with the caller's JSON schema, parsed and checked by `validate`. An invalid
 * answer gets one repair attempt that shows the model its call and the error; a second invalid
 * answer fails the run with `DecisionError`. Each call is a recorded step in `lane` (so a retried
 * job replays it), is checked against and charged to the run's budget and usage, and honours the
 * run's signal. Nothing is streamed or added to the conversation: the caller renders the decision.
 */
export async function decide<T>(
  swarm: SwarmRun,
  who: DecisionMaker,
  input: string,
  tool: DecisionTool,
  validate: DecisionValidator,
  lane: string,
): Promise<T> {
  const { ctx } = swarm;
  const own = who.spec ?? internalAgentSpec(who.name, who.model, who.systemPrompt);
  // Only internal agents borrow the swarm's provider options; a request agent keeps its own, even none.
  const borrowed = own.role === "internal" && own.llm_args == null;
  const target = resolveModel(who.model);
  const spec: AgentSpec = {
    ...own,
    model_name: who.model,
    llm_args: borrowed ? swarm.internalLlmArgs : own.llm_args,
    // Anthropic refuses extended thinking together with a forced tool call, which every decision is.
    ...(modelFamily(target) === "anthropic" ? { reasoning_enabled: false, thinking_tokens: null } : {}),
  };
  // One lane for both attempts: the repair is step #1 of the same lane, so replay finds it.
  const recorder = ctx.recorder.lane(`${swarm.lanePrefix}${lane}`);
  const tools: FunctionTool[] = [
    { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } },
  ];
  const messages: ChatMessage[] = [
    { role: "system", content: who.systemPrompt },
    { role: "user", content: input },
  ];

  const call = async (attempt: number): Promise<AssistantMessage> => {
    const allowance = await ctx.budget.beforeCall(
      {
        prompt: estimatePromptTokens(messages, tools),
        output: spec.max_tokens,
        charge: callerCharge(ctx.usage, who.name, spec.role === "internal"),
        call: inFlightCall(recorder, who.name, spec.role, who.model, target),
        replay: recorder.willReplay(),
      },
      ctx.signal,
    );
    const request = buildChatRequest(spec, target, messages, {
      loop: 0,
      tools,
      toolChoice: { type: "function", function: { name: tool.name } },
      maxTokensCap: allowance.maxTokens,
    });
    const meta = {
      agentName: who.name,
      role: spec.role,
      model: who.model,
      input: { kind: "decision", tool: tool.name, attempt },
    };
    return (await recordedLlmCall(ctx, recorder, meta, target, request, allowance)).message;
  };

  let problem = "";
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const reply = await call(attempt);
    const read = readCall(reply, tool.name);
    problem = boundedProblem(read.problem ?? validate(read.value) ?? "");
    if (!problem) return read.value as T;
    const fix = `That ${tool.name} call is invalid: ${problem}. Call ${tool.name} again with corrected arguments.`;
    if (read.call) {
      // Only the call we answer goes back: every tool call in the history needs a tool reply.
      messages.push(
        { role: "assistant", content: reply.content, tool_calls: [read.call] },
        { role: "tool", tool_call_id: read.call.id, content: fix },
      );
    } else {
      messages.push({ role: "assistant", content: reply.content ?? "" }, { role: "user", content: fix });
    }
  }
  throw new DecisionError(who.name, tool.name, problem);
}
