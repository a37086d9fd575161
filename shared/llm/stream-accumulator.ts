import type OpenAI from "openai";
import type { ChatRunChoice } from "../contracts/chat-run";
import { headOf, MODEL_OUTPUT_MAX_CHARS, TOOL_CALLS_MAX_PER_ANSWER } from "../limits/outside-content";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Message = OpenAI.Chat.Completions.ChatCompletionMessage;
type TokenLogprob = OpenAI.Chat.Completions.ChatCompletionTokenLogprob;

/**
 * Log-probability entries kept per call, over all its answers, each token's alternatives counted
 * as entries too: about 60 bytes each, so a call's log probabilities stay within a few megabytes
 * however large `n × max_tokens × top_logprobs` is. Tokens past it keep their text, not their numbers.
 */
export const LOGPROB_ENTRIES_MAX_PER_CALL = 100_000;

/** What one token's log probability costs of `LOGPROB_ENTRIES_MAX_PER_CALL`: itself and its alternatives. */
const logprobEntries = (token: TokenLogprob) => 1 + (token.top_logprobs?.length ?? 0);

/** Takes the tokens of `tokens` that fit in what is left of a call's log-probability budget. */
export function withinLogprobBudget(tokens: TokenLogprob[], budget: { left: number }): TokenLogprob[] {
  let end = 0;
  while (end < tokens.length && budget.left >= logprobEntries(tokens[end]))
    budget.left -= logprobEntries(tokens[end++]);
  if (end < tokens.length) budget.left = 0; // past the budget nothing more is kept, so answers stay prefixes
  return end === tokens.length ? tokens : tokens.slice(0, end);
}

/** A piece of a streamed answer as it is kept, for a client reading it live. */
export interface ChatDelta {
  /** Which of the `n` answers (0 for the first). */
  choice: number;
  text?: string;
  /** A piece of a tool call: its first piece has the call's id and name. */
  toolCall?: { index: number; id?: string; name?: string; arguments: string };
}

/** One answer as its chunks built it. */
interface ChoiceState {
  content: string;
  refusal: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string | null;
  /** The characters of this answer received, kept or not. */
  received: number;
  logprobs: { content: TokenLogprob[]; refusal: TokenLogprob[] } | null;
}

const newChoice = (): ChoiceState => ({
  content: "",
  refusal: null,
  toolCalls: [],
  finishReason: null,
  received: 0,
  logprobs: null,
});

/**
 * Rebuilds complete assistant messages (text, refusals and tool calls of each of the `n` answers)
 * from streamed chunks. It keeps one character past `MODEL_OUTPUT_MAX_CHARS` at most, over all
 * answers (enough for `boundAnswer` to see the answer was over), and counts the rest as `received`
 * without holding it: `full` says to stop reading.
 */
export class StreamAccumulator {
  private readonly states = new Map<number, ChoiceState>();
  usage: OpenAI.CompletionUsage | undefined;
  systemFingerprint: string | null = null;
  /** The characters of text, tool names and arguments received, kept or not. */
  received = 0;
  /** The characters passed on as deltas: never past the bound. */
  private passed = 0;
  /** What is left of the call's log-probability budget. */
  private readonly logprobBudget = { left: LOGPROB_ENTRIES_MAX_PER_CALL };

  /** `onDelta`: each kept piece of text or tool call, as it arrives, within the answer's bound. */
  constructor(private readonly onDelta?: (delta: ChatDelta) => void) {}

  /** Whether the answer has gone past its bound: what comes after is not kept. */
  get full(): boolean {
    return this.received > MODEL_OUTPUT_MAX_CHARS;
  }

  /** Why the first answer ended (`stop` until a chunk says). */
  get finishReason(): string {
    return this.states.get(0)?.finishReason ?? "stop";
  }

  /** Adds a chunk; returns the first answer's text it carried that was kept (empty when none). */
  add(chunk: Chunk): string {
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.system_fingerprint) this.systemFingerprint = chunk.system_fingerprint;
    let first = "";
    for (const choice of chunk.choices) {
      const text = this.addChoice(choice);
      if ((choice.index ?? 0) === 0) first += text;
    }
    return first;
  }

  private addChoice(choice: Chunk["choices"][number]): string {
    const index = choice.index ?? 0;
    let state = this.states.get(index);
    if (!state) this.states.set(index, (state = newChoice()));
    if (choice.finish_reason) state.finishReason = choice.finish_reason;
    this.addLogprobs(state, choice.logprobs);
    for (const call of choice.delta?.tool_calls ?? []) {
      // A provider that numbers no call sends one call at a time: it is the first.
      const callIndex = call.index ?? 0;
      // Tool calls past the bound's count are counted and dropped (the index is the provider's).
      if (callIndex >= TOOL_CALLS_MAX_PER_ANSWER) {
        const chars = (call.function?.name?.length ?? 0) + (call.function?.arguments?.length ?? 0);
        this.received += chars;
        state.received += chars;
        continue;
      }
      const slot = (state.toolCalls[callIndex] ??= { id: "", name: "", arguments: "" });
      const name = this.keep(state, call.function?.name ?? "");
      const args = this.keep(state, call.function?.arguments ?? "");
      if (call.id) slot.id = call.id;
      slot.name += name;
      slot.arguments += args;
      const piece = {
        index: callIndex,
        ...(call.id ? { id: call.id } : {}),
        ...(name ? { name } : {}),
        arguments: args,
      };
      if (call.id || name || args) this.pass({ choice: index, toolCall: piece });
    }
    const refusal = this.keep(state, choice.delta?.refusal ?? "");
    if (refusal) state.refusal = (state.refusal ?? "") + refusal;
    const text = this.keep(state, choice.delta?.content ?? "");
    state.content += text;
    const passed = this.pass({ choice: index, text });
    return passed.text ?? "";
  }

  private addLogprobs(state: ChoiceState, logprobs: Chunk["choices"][number]["logprobs"] | undefined): void {
    if (!logprobs) return;
    const kept = (state.logprobs ??= { content: [], refusal: [] });
    for (const part of ["content", "refusal"] as const)
      if (logprobs[part]?.length) kept[part].push(...withinLogprobBudget(logprobs[part], this.logprobBudget));
  }

  /** Passes a kept piece on, cut to the bound (the one character kept past it is never sent). */
  private pass(delta: ChatDelta): ChatDelta {
    const room = Math.max(0, MODEL_OUTPUT_MAX_CHARS - this.passed);
    const text = delta.text ? headOf(delta.text, room) : "";
    this.passed +=
      text.length + (delta.toolCall ? (delta.toolCall.name?.length ?? 0) + delta.toolCall.arguments.length : 0);
    const out: ChatDelta = {
      choice: delta.choice,
      ...(text ? { text } : {}),
      ...(delta.toolCall ? { toolCall: delta.toolCall } : {}),
    };
    if (out.text || out.toolCall) this.onDelta?.(out);
    return out;
  }

  /** The part of `piece` that fits in what is kept; all of it counts as received (by the call and its answer). */
  private keep(state: ChoiceState, piece: string): string {
    if (!piece) return "";
    const room = MODEL_OUTPUT_MAX_CHARS + 1 - this.received;
    this.received += piece.length;
    state.received += piece.length;
    return room >= piece.length ? piece : headOf(piece, Math.max(0, room));
  }

  /** The answer `index` (the first by default) as one message. */
  message(index = 0): Message {
    const state = this.states.get(index) ?? newChoice();
    const calls = state.toolCalls.filter(Boolean);
    return {
      role: "assistant",
      content: calls.length && !state.content ? null : state.content,
      refusal: state.refusal,
      ...(calls.length
        ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: "function" as const,
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : {}),
    };
  }

  /**
   * Every answer, in index order, as a chat completion's choices (messages not yet bounded), with
   * the characters each received; an answer the read stopped before its end (`full`) ended at `length`.
   */
  choices(): (Omit<ChatRunChoice, "message"> & { message: Message; received: number })[] {
    return [...this.states.keys()]
      .sort((a, b) => a - b)
      .map((index) => {
        const state = this.states.get(index)!;
        return {
          index,
          message: this.message(index),
          finish_reason: (state.finishReason ?? (this.full ? "length" : "stop")) as ChatRunChoice["finish_reason"],
          logprobs: state.logprobs,
          received: state.received,
        };
      });
  }
}
