import { expect } from "chai";
import { answerTokens, countTokens, promptTokens, TOKENS_PER_IMAGE } from "../../shared/llm/tokens";

/** Tokens the service counts for calls a provider did not count (cut off, or a provider without usage). */
describe("counting what a provider did not count", () => {
  it("counts a short prompt's text with the tokenizer, and an image at its fixed price, not its base64", () => {
    const image = `data:image/png;base64,${"A".repeat(300_000)}`;
    const text = "Describe this picture, please.";
    const counted = promptTokens([
      {
        role: "user",
        content: [
          { type: "text", text },
          { type: "image_url", image_url: { url: image } },
        ],
      },
    ]);
    expect(counted).to.equal(3 + 4 + countTokens(text) + TOKENS_PER_IMAGE);
  });

  it("reads at most a bounded part of what a client or provider sent, so any text is counted in linear time", () => {
    // Long runs of one character are what the tokenizer reads slowest: spread over many messages.
    const hostile = Array.from({ length: 2_500 }, () => ({ role: "user" as const, content: "a".repeat(4_000) }));
    let started = performance.now();
    const prompt = promptTokens(hostile);
    expect(performance.now() - started, "ms for a 10 MB prompt").to.be.below(1_000);
    expect(prompt).to.be.above(1_000_000);
    started = performance.now();
    const answer = answerTokens({ role: "assistant", content: "q".repeat(2_000_000), refusal: null });
    expect(performance.now() - started, "ms for a 2 MB answer").to.be.below(1_000);
    expect(answer).to.be.above(100_000);
  });
});
