import { expect } from "chai";
import type OpenAI from "openai";
import { chatEndingOf } from "../../api/runs/chat-stream";
import type { ChatRunChoice } from "../../shared/contracts/chat-run";
import { MODEL_OUTPUT_MAX_CHARS } from "../../shared/limits/outside-content";
import { chatRunChoice, newLogprobBudget } from "../../shared/llm/chat-choices";
import {
  LOGPROB_ENTRIES_MAX_PER_CALL,
  StreamAccumulator,
  withinLogprobBudget,
} from "../../shared/llm/stream-accumulator";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type TokenLogprob = OpenAI.Chat.Completions.ChatCompletionTokenLogprob;

/** A chunk of answer `index` (or of no numbered answer when index is undefined). */
function chunk(content: string, index: number | undefined, finish: string | null = null): Chunk {
  const choice = { delta: { content }, finish_reason: finish, ...(index === undefined ? {} : { index }) };
  return { id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [choice] } as unknown as Chunk;
}

const token = (alternatives: number): TokenLogprob => ({
  token: "a",
  logprob: -0.1,
  bytes: [97],
  top_logprobs: Array.from({ length: alternatives }, () => ({ token: "b", logprob: -1, bytes: [98] })),
});

describe("a chat run's answers (n, logprobs, the answer's bound)", () => {
  it("a stream stopped at the bound: a finished answer keeps its reason, the unfinished ones end at length", () => {
    const acc = new StreamAccumulator();
    const half = "s".repeat(MODEL_OUTPUT_MAX_CHARS / 2 + 10);
    acc.add(chunk("done", 0, "stop"));
    acc.add(chunk(half, 1));
    acc.add(chunk(half, 2));
    expect(acc.full).to.equal(true);
    const choices = acc.choices();
    expect(choices.map((c) => c.finish_reason)).to.deep.equal(["stop", "length", "length"]);
    expect(choices.map((c) => c.received)).to.deep.equal([4, half.length, half.length]);
    // Each answer is bounded by what it received, not by the call's total: the short one is whole.
    const kept = choices.map((c) => chatRunChoice(c, newLogprobBudget()));
    expect(kept[0]).to.deep.include({ finish_reason: "stop" });
    expect(kept[0].message.content).to.equal("done");
  });

  it("reads chunks whose answer is not numbered as the first answer's (as a provider may send them)", () => {
    const acc = new StreamAccumulator();
    expect([acc.add(chunk("Hello", undefined)), acc.add(chunk(" world", undefined, "stop"))]).to.deep.equal([
      "Hello",
      " world",
    ]);
    expect(acc.message().content).to.equal("Hello world");
  });

  it("keeps log probabilities within one budget per call, alternatives counted, answers cut as prefixes", () => {
    const budget = { left: 12 };
    expect(withinLogprobBudget([token(4), token(4), token(4), token(0)], budget)).to.have.length(2);
    expect(budget.left).to.equal(0);
    expect(withinLogprobBudget([token(0)], budget)).to.deep.equal([]);

    const acc = new StreamAccumulator();
    const many = Array.from({ length: 10_000 }, () => token(20));
    for (const index of [0, 1]) {
      const c = chunk("a", index) as unknown as { choices: { logprobs: unknown }[] };
      c.choices[0].logprobs = { content: many, refusal: null };
      acc.add(c as unknown as Chunk);
    }
    const kept = acc.choices().map((c) => c.logprobs?.content?.length ?? 0);
    expect(kept[0] * 21 + kept[1] * 21).to.be.at.most(LOGPROB_ENTRIES_MAX_PER_CALL);
    expect(kept[0]).to.equal(Math.floor(LOGPROB_ENTRIES_MAX_PER_CALL / 21));
  });

  it("an ending told from the row after live pieces were relayed repeats no piece: only each answer's end", () => {
    const choices: ChatRunChoice[] = [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
        },
        finish_reason: "tool_calls",
        logprobs: null,
      },
    ];
    const whole = chatEndingOf({ choices }, { output_tokens: 3 });
    expect(whole.map((e) => e.type)).to.deep.equal(["tool_call_delta", "choice_end", "finish"]);
    const rest = chatEndingOf({ choices }, { output_tokens: 3 }, true);
    expect(rest.map((e) => e.type)).to.deep.equal(["choice_end", "finish"]);
  });
});
