import type OpenAI from "openai";
import type { AgentSpec, HistoryMessage } from "../../shared/contracts/agent-spec";
import type { ChatMessage } from "../../shared/llm/chat";
import { resolveModel } from "../../shared/llm/providers";
import type { AgentContext } from "./agent-context";
import { autoPromptMessages } from "./auto-prompt";
import {
  chosenBuiltinTool,
  isBuiltinTool,
  offeredBuiltinTools,
  type BuiltinTool,
} from "../../shared/tools/builtin-tools";
import { ApprovalPendingError, callsAwaitingDecision, decidedCall } from "./approval-gate";
import { builtinFunctionTool, callBuiltinTool } from "./builtin-toolset";
import { functionTools, type FunctionTool } from "./function-tools";
import { agentName, HANDOFF_TOOL, handoffTool, MAX_HANDOFF_DEPTH, parseHandoff } from "./handoffs";
import { buildChatRequest } from "./llm-request";
import { estimatePromptTokens } from "./prompt-estimate";
import { inFlightCall, recordedLlmCall, type AssistantMessage } from "./recorded-llm-call";
import { callerCharge, incur } from "./run-charges";
import { historyMessages, REVIEW_PROMPT, userMessage } from "./messages";
import { imageForModel } from "./run-images";
import { isRunFailure } from "../handlers/run-failure";
import { collectMcpServers } from "./mcp/mcp-servers";
import { McpToolbox } from "./mcp/mcp-toolbox";
import type { StepRecorder } from "./step-recorder";
import { noteResultCut, noteToolListCuts, refuseLongArguments } from "./truncation-notes";

export { agentName } from "./handoffs";

/** What an agent is asked to do in one run. */
export interface AgentInput {
  task: string;
  history?: HistoryMessage[] | Record<string, unknown> | null;
  images?: string[];
  /** Overrides the agent's own system prompt (e.g. a marketplace prompt or a swarm's additions). */
  systemPrompt?: string | null;
  /**
   * `tools_enabled`: a built-in tool it names is attached (one: `auto_search` wins); when it names
   * other tools too, only those client and MCP tools are offered.
   */
  toolsEnabled?: string[] | null;
}

/** An agent's final answer: text, or the tool calls the client has to execute itself. */
export interface AgentResult {
  agentName: string;
  content: string | { type: "function"; function: { name: string; arguments: string } }[];
  llmCalls: number;
}

type AnyToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;
type ToolCall = OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;

/** Tool rounds per answer before the model is made to answer without tools. */
const MAX_TOOL_ROUNDS = 10;

const SUMMARY_PROMPT =
  "Using the tool results above, give your final answer to the task: summarise what the tools returned that matters for it. Reply with the answer only.";

/** The tools an agent can use, and which of them the service executes itself. */
interface Toolset {
  tools: FunctionTool[];
  mcp: McpToolbox | null;
  handoffs: AgentSpec[];
  /** The built-in tool the service runs for this agent, if `tools_enabled` asked for one. */
  builtin: BuiltinTool | null;
}

function functionCalls(calls: AnyToolCall[]): ToolCall[] {
  return calls.filter((c): c is ToolCall => c.type === "function");
}

/**
 * Runs one agent on one task, as docs/swarm-types.md's common rules define: a system prompt (written
 * by an extra call with `auto_generate_prompt`), history, the task with its images; function
 * tools offered, MCP tools and handoffs executed and fed back (at most 10 rounds), an optional
 * summary of tool results; then `max_loops − 1` review turns. Every LLM and tool call is a recorded
 * step, so a retried job resumes where the crashed one stopped.
 */
export async function runAgent(spec: AgentSpec, input: AgentInput, ctx: AgentContext): Promise<AgentResult> {
  const name = agentName(spec);
  const target = resolveModel(spec.model_name);
  const rec = ctx.recorder;
  const result: AgentResult = { agentName: name, content: "", llmCalls: 0 };
  const images = input.images ?? [];
  // Flat charges count in the budget before any call, so a run that cannot pay them makes none.
  for (const image of images) await incur(ctx, { kind: "image", image, agent: name });
  // Fetched before any call, so an image that cannot be used fails the run before it spends anything.
  const imageParts = await Promise.all(images.map((image) => imageForModel(ctx.usage, image, ctx.signal)));
  const builtin = offeredBuiltin(input.toolsEnabled);
  if (builtin) await incur(ctx, { kind: "tool", tool: builtin, agent: name }); // a flat fee per request, used or not

  /** One recorded LLM call; the budget is checked before and charged after. */
  const call = async (
    messages: ChatMessage[],
    meta: Record<string, unknown>,
    tools: FunctionTool[] = [],
    toolChoice?: "none",
  ): Promise<AssistantMessage> => {
    const allowance = await ctx.budget.beforeCall(
      {
        prompt: estimatePromptTokens(messages, tools),
        output: spec.max_tokens,
        charge: callerCharge(ctx.usage, name, spec.role === "internal"),
        call: inFlightCall(rec, name, spec.role, spec.model_name, target),
        replay: rec.willReplay(),
      },
      ctx.signal,
    );
    const request = buildChatRequest(spec, target, messages, {
      loop: Number(meta.loop ?? 0),
      tools,
      toolChoice,
      maxTokensCap: allowance.maxTokens,
    });
    const onText = ctx.onText && ctx.depth === 0 ? (text: string) => ctx.onText!(name, text) : undefined;
    const stepMeta = { agentName: name, role: spec.role, model: spec.model_name, input: meta };
    const { message, replayed } = await recordedLlmCall(ctx, rec, stepMeta, target, request, allowance, { onText });
    // A replayed step streams its stored text at once, so a resumed stream still shows the answer.
    if (replayed && onText && message.content) onText(message.content);
    result.llmCalls++;
    return message;
  };

  let systemPrompt = input.systemPrompt ?? spec.system_prompt ?? null;
  // A marketplace prompt is what its buyer chose and pays for: it is used as it is, never rewritten.
  if (spec.auto_generate_prompt && !spec.marketplace_prompt_id) {
    const written = await call(autoPromptMessages(spec, name), { kind: "auto_prompt" });
    systemPrompt = written.content?.trim() || systemPrompt;
  }
  if (!systemPrompt?.trim()) systemPrompt = [`You are ${name}.`, spec.description].filter(Boolean).join(" ");

  const toolset = await openToolset(spec, ctx, builtin, input.toolsEnabled);
  noteToolListCuts(ctx.recorder, name, toolset.mcp?.listCuts ?? []);
  try {
    const messages: ChatMessage[] = [
      { role: "system", content: systemPrompt },
      ...historyMessages(input.history),
      userMessage(input.task, imageParts),
    ];
    for (let loop = 0; loop < spec.max_loops; loop++) {
      if (loop > 0) messages.push({ role: "user", content: REVIEW_PROMPT });
      const answer = await answerWithTools(messages, loop);
      if (typeof answer !== "string") {
        result.content = answer; // a tool only the client can run: the turn ends here
        break;
      }
      messages.push({ role: "assistant", content: answer });
      result.content = answer;
      ctx.recorder.outcomes.answered(name, answer); // what a run wound down at its budget keeps of it
    }
    return result;
  } finally {
    await toolset.mcp?.close();
  }

  /** One answer: tool rounds until the model replies in text (or asks for a tool we cannot run). */
  async function answerWithTools(messages: ChatMessage[], loop: number): Promise<AgentResult["content"]> {
    let usedTools = false;
    for (let round = 0; ; round++) {
      const forceText = round >= MAX_TOOL_ROUNDS;
      const reply = await call(messages, { loop, round }, toolset.tools, forceText ? "none" : undefined);
      const calls = functionCalls(reply.tool_calls ?? []);
      if (calls.length === 0 || forceText) {
        const text = reply.content ?? "";
        if (!usedTools || !spec.tool_call_summary) return text;
        messages.push({ role: "assistant", content: text }, { role: "user", content: SUMMARY_PROMPT });
        const summary = await call(messages, { loop, round, kind: "tool_summary" });
        messages.splice(-2, 2);
        return summary.content ?? "";
      }
      if (calls.some((c) => !isExecutable(c.function.name))) {
        return calls.map((c) => ({
          type: "function" as const,
          function: { name: c.function.name, arguments: c.function.arguments },
        }));
      }
      const lanes = calls.map((_, i) => rec.lane(`l${loop}r${round}t${i}`));
      // Gated calls without a decision park the run before any call of the round runs.
      const waiting = callsAwaitingDecision(name, calls, lanes, isGated);
      if (waiting.length) throw new ApprovalPendingError(waiting);
      messages.push({ role: "assistant", content: reply.content, tool_calls: calls } as ChatMessage);
      const results = await Promise.all(
        calls.map((c, i) =>
          isGated(c.function.name)
            ? decidedCall(name, c, lanes[i], () => executeTool(c, lanes[i]))
            : executeTool(c, lanes[i]),
        ),
      );
      calls.forEach((c, i) => messages.push({ role: "tool", tool_call_id: c.id, content: results[i] }));
      usedTools = true;
    }
  }

  /** Whether a call of this tool waits for the client's decision (`requires_approval`). */
  function isGated(tool: string): boolean {
    return Boolean(spec.requires_approval?.includes(tool));
  }

  function isExecutable(tool: string): boolean {
    return (
      (tool === HANDOFF_TOOL && toolset.handoffs.length > 0) ||
      tool === toolset.builtin ||
      Boolean(toolset.mcp?.has(tool))
    );
  }

  /** Runs one tool call the service can execute; the text is what the model reads back. */
  async function executeTool(toolCall: ToolCall, lane: StepRecorder): Promise<string> {
    const { name: tool, arguments: args } = toolCall.function;
    const refusal = refuseLongArguments(ctx.recorder, name, tool, args);
    if (refusal) return refusal;
    if (tool === HANDOFF_TOOL) {
      const handoff = parseHandoff(args, toolset.handoffs);
      if (!handoff)
        return `Invalid handoff: name one of ${toolset.handoffs.map(agentName).join(", ")} and give a task.`;
      // The delegated agent's turn is its own in the run's outcomes, as a swarm agent's is.
      const delegate = agentName(handoff.spec);
      ctx.recorder.outcomes.started(delegate);
      const delegated = await runAgent(
        handoff.spec,
        { task: handoff.task },
        { ...ctx, recorder: lane, depth: ctx.depth + 1 },
      ).catch((err: unknown) => {
        if (isRunFailure(err)) ctx.recorder.outcomes.failed(delegate, err.message);
        throw err;
      });
      ctx.recorder.outcomes.finished(delegate, delegated.content);
      return typeof delegated.content === "string" ? delegated.content : JSON.stringify(delegated.content);
    }
    if (tool === toolset.builtin) return callBuiltinTool(toolset.builtin, args, name, ctx, lane);
    // Charged before the call, as every flat charge is; a call that fails the run gives it back.
    const refund = await incur(ctx, { kind: "mcp_call", tool, agent: name, forStep: lane.nextKey() });
    const outcome = await lane
      .step({ agentName: name, role: "tool", model: `mcp:${tool}`, input: { tool, arguments: args } }, async () => {
        const answer = await toolset.mcp!.call(tool, args, ctx.signal);
        return { output: answer, inputTokens: 0, outputTokens: 0, cost: 0 };
      })
      .catch((err: unknown) => {
        refund();
        throw err;
      });
    noteResultCut(ctx.recorder, name, tool, outcome.output);
    return (outcome.output as { text: string }).text;
  }
}

/** The built-in tool `tools_enabled` attaches. The API refused tools this deployment does not offer; one withdrawn since is left out, not run. */
function offeredBuiltin(toolsEnabled?: string[] | null): BuiltinTool | null {
  const chosen = chosenBuiltinTool(toolsEnabled);
  return chosen && offeredBuiltinTools().includes(chosen) ? chosen : null;
}

async function openToolset(
  spec: AgentSpec,
  ctx: AgentContext,
  builtin: BuiltinTool | null,
  toolsEnabled?: string[] | null,
): Promise<Toolset> {
  const servers = collectMcpServers(spec);
  const mcp = servers.length ? await McpToolbox.open(servers, ctx.signal) : null;
  const handoffs = ctx.depth < MAX_HANDOFF_DEPTH ? ((spec.handoffs ?? []) as AgentSpec[]) : [];
  const executable = new Set([
    ...(builtin ? [builtin] : []),
    ...(mcp?.tools.map((t) => t.function.name) ?? []),
    ...(handoffs.length ? [HANDOFF_TOOL] : []),
  ]);
  // A client tool that shares a name with one we execute would be ambiguous: ours wins.
  const clientTools = functionTools(spec.tools_list_dictionary).filter((t) => !executable.has(t.function.name));
  // Built-in names do not filter: `["auto_search"]` adds search and keeps the client's tools.
  const named = toolsEnabled?.filter((t) => !isBuiltinTool(t)) ?? [];
  const filters = Boolean(toolsEnabled) && (named.length > 0 || toolsEnabled!.length === 0);
  const allowed = (t: FunctionTool) => !filters || named.includes(t.function.name);
  const tools = [
    ...clientTools.filter(allowed),
    ...((mcp?.tools ?? []) as FunctionTool[]).filter(allowed),
    ...(handoffs.length ? [handoffTool(handoffs)] : []),
    ...(builtin ? [builtinFunctionTool(builtin)] : []),
  ];
  return { tools, mcp, handoffs, builtin };
}
