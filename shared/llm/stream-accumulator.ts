import type OpenAI from "openai";
import type { ChatRunChoice } from "../contracts/chat-run";
import { headOf, MODEL_OUTPUT_MAX_CHARS, TOOL_CALLS_MAX_PER_ANSWER } from "../limits/outside-content";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Message = OpenAI.Chat.Completions.ChatCompletionMessage;
type TokenLogprob = OpenAI.Chat.Completions.ChatCompletionTokenLogprob;

/** Log-probability entries kept per answer: one per token, so an answer at a large output cap stays storable. */
export const LOGPROBS_MAX_PER_ANSWER = 20_000;

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
  logprobs: { content: TokenLogprob[]; refusal: TokenLogprob[] } | null;
}

const newChoice = (): ChoiceState => ({
  content: "",
  refusal: null,
  toolCalls: [],
  finishReason: null,
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
      if (choice.index === 0) first += text;
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
      // Tool calls past the bound's count are counted and dropped (the index is the provider's).
      if (call.index >= TOOL_CALLS_MAX_PER_ANSWER) {
        this.received += (call.function?.name?.length ?? 0) + (call.function?.arguments?.length ?? 0);
        continue;
      }
      const slot = (state.toolCalls[call.index] ??= { id: "", name: "", arguments: "" });
      const name = this.keep(call.function?.name ?? "");
      const args = this.keep(call.function?.arguments ?? "");
      if (call.id) slot.id = call.id;
      slot.name += name;
      slot.arguments += args;
      const piece = {
        index: call.index,
        ...(call.id ? { id: call.id } : {}),
        ...(name ? { name } : {}),
        arguments: args,
      };
      if (call.id || name || args) this.pass({ choice: index, toolCall: piece });
    }
    const refusal = this.keep(choice.delta?.refusal ?? "");
    if (refusal) state.refusal = (state.refusal ?? "") + refusal;
    const text = this.keep(choice.delta?.content ?? "");
    state.content += text;
    const passed = this.pass({ choice: index, text });
    return passed.text ?? "";
  }

  private addLogprobs(state: ChoiceState, logprobs: Chunk["choices"][number]["logprobs"] | undefined): void {
    if (!logprobs) return;
    const kept = (state.logprobs ??= { content: [], refusal: [] });
    for (const part of ["content", "refusal"] as const) {
      const room = LOGPROBS_MAX_PER_ANSWER - kept[part].length;
      if (room > 0 && logprobs[part]?.length) kept[part].push(...logprobs[part].slice(0, room));
    }
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

  /** The part of `piece` that fits in what is kept; all of it counts as received. */
  private keep(piece: string): string {
    if (!piece) return "";
    const room = MODEL_OUTPUT_MAX_CHARS + 1 - this.received;
    this.received += piece.length;
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

  /** Every answer, in index order, as a chat completion's choices (messages not yet bounded). */
  choices(): (Omit<ChatRunChoice, "message"> & { message: Message })[] {
    return [...this.states.keys()]
      .sort((a, b) => a - b)
      .map((index) => {
        const state = this.states.get(index)!;
        return {
          index,
          message: this.message(index),
          finish_reason: (state.finishReason ?? "stop") as ChatRunChoice["finish_reason"],
          logprobs: state.logprobs,
        };
      });
  }
}
