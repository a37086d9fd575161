import type { ChatRunChoice, ChatRunOutput } from "../../shared/contracts/chat-run";
import type { ChatCompletionRun, ResponseRun } from "../../shared/db/entities/run.entity";
import { resolveModel } from "../../shared/llm/providers";
import type { ChatDelta } from "../../shared/llm/stream-accumulator";
import type { RunEventWriter } from "../../shared/queues/run-events";
import { revealedRequest } from "../../shared/secrets/run-secrets";
import { agentUsage } from "../agents/agent-usage";
import { estimatePromptTokens } from "../agents/prompt-estimate";
import { inFlightCall, recordedLlmCall, type AssistantMessage } from "../agents/recorded-llm-call";
import { callerCharge, incur } from "../agents/run-charges";
import { answersAsked } from "../../shared/contracts/chat-run";
import { chatRunProviderRequest, imagesOf, messagesForModel } from "../chat/chat-run-request";
import type { Handler } from "./handler";
import { executeRun } from "./run-lifecycle";
import type { RunExecution } from "./run-execution";

/** The runs whose stored request is a `ChatRunRequest`: one call, passed to the provider as the client wrote it. */
type ChatRun = ChatCompletionRun | ResponseRun;

/** Whose call a chat run's is, in its steps, bill and logs (the name a chat completion's agent had). */
const ASSISTANT = "Assistant";

/** A streamed piece of an answer as the run's event. */
function emitDelta(events: RunEventWriter, delta: ChatDelta): void {
  if (delta.text)
    events.emit({ type: "chunk", content: delta.text, ...(delta.choice ? { choice: delta.choice } : {}) });
  if (delta.toolCall) events.emit({ type: "tool_call_delta", choice: delta.choice, ...delta.toolCall });
}

/** A call's answers: every one kept, or (a step stored before they were) the first. */
function choicesOf(message: AssistantMessage): ChatRunChoice[] {
  if (message.choices) return message.choices;
  const { content, tool_calls } = message;
  const calls = tool_calls?.filter((c) => c.type === "function");
  const finish = message.truncated ? "length" : calls?.length ? "tool_calls" : "stop";
  return [
    {
      index: 0,
      message: { role: "assistant", content, refusal: null, ...(calls?.length ? { tool_calls: calls } : {}) },
      finish_reason: finish,
      logprobs: null,
    },
  ];
}

/**
 * Every answer asked for, in order: one the provider never began (a read stopped at the answer's
 * bound, a provider that gives fewer) is empty and ended at `length`, so a client that announced
 * `n` answers gets `n` endings.
 */
function everyAnswer(choices: ChatRunChoice[], asked: number): ChatRunChoice[] {
  const byIndex = new Map(choices.map((c) => [c.index, c]));
  return Array.from(
    { length: Math.max(asked, choices.length) },
    (_, index): ChatRunChoice =>
      byIndex.get(index) ?? {
        index,
        message: { role: "assistant", content: "", refusal: null },
        finish_reason: "length",
        logprobs: null,
      },
  );
}

/**
 * How a chat run executes: the conversation's images fetched (and charged), the call's budget
 * reserved for every answer asked (`n` × the output cap), one recorded call (replayed on a retried
 * job), its pieces streamed as they come, and every answer stored in OpenAI's shape. Billed as an
 * agent run of one agent is: the per-agent charge and the tokens at the price table's rates.
 */
function chatRunExecution(kind: ChatRun["kind"]): RunExecution<ChatRun> {
  return {
    kind,
    async execute({ run, recorder, budget, usage, signal, events }) {
      const request = revealedRequest(run);
      recorder.outcomes.expect([ASSISTANT]);
      // The run's own agent is billed whether or not it gets to call: its budget counts that first.
      await incur({ budget, usage, recorder }, { kind: "run_agent", agent: ASSISTANT });
      recorder.outcomes.started(ASSISTANT);
      const target = resolveModel(request.model);
      for (const image of imagesOf(request.messages))
        await incur({ budget, usage, recorder }, { kind: "image", image, agent: ASSISTANT });
      const messages = await messagesForModel(request.messages, usage, signal);
      const answers = answersAsked(request);
      const lane = recorder.lane("chat");
      const allowance = await budget.beforeCall(
        {
          prompt: estimatePromptTokens(messages, (request.options.tools as unknown[] | undefined) ?? []),
          output: request.max_tokens * answers,
          charge: callerCharge(usage, ASSISTANT, false),
          call: inFlightCall(lane, ASSISTANT, "worker", request.model, target),
          replay: lane.willReplay(),
        },
        signal,
      );
      const perAnswer = Math.max(1, Math.floor(allowance.maxTokens / answers));
      const providerRequest = chatRunProviderRequest(request, target, messages, perAnswer);
      const meta = { agentName: ASSISTANT, role: "worker", model: request.model, input: {} };
      const onDelta = events ? (delta: ChatDelta) => emitDelta(events, delta) : undefined;
      const { message } = await recordedLlmCall(
        { budget, usage, signal },
        lane,
        meta,
        target,
        providerRequest,
        allowance,
        {
          onDelta,
          keepChoices: true,
        },
      );
      const choices = everyAnswer(choicesOf(message), answers);
      if (events) {
        // A replayed step's pieces are in the run's stream already (its events outlive the attempt
        // that streamed them): told again, a client would join a tool call's arguments twice.
        for (const c of choices)
          events.emit({ type: "choice_end", choice: c.index, finish_reason: c.finish_reason, logprobs: c.logprobs });
      }
      recorder.outcomes.finished(ASSISTANT, choices[0]?.message.content ?? "");
      const output: ChatRunOutput = { choices, system_fingerprint: message.system_fingerprint ?? null };
      return { output, usage: agentUsage(usage), log: { calls: 1 } };
    },
    usageSoFar: ({ usage }) => agentUsage(usage),
    failedAgent: () => ASSISTANT,
  };
}

/** A chat completion (`POST /v1/chat/completions`): one call, its answers stored in OpenAI's shape. */
export const handleChatCompletion: Handler<"chat-completion"> = ({ runId }, ctx) =>
  executeRun<ChatRun>(runId, ctx, chatRunExecution("chat_completion"));

/** A Responses API run (`POST /v1/responses`): the same one call, its request carrying the response's settings. */
export const handleResponse: Handler<"response"> = ({ runId }, ctx) =>
  executeRun<ChatRun>(runId, ctx, chatRunExecution("response"));
