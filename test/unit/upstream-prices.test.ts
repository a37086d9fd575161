import { calcPrice, findProvider } from "@pydantic/genai-prices";
import { expect } from "chai";
import { upstreamCost } from "../../shared/llm/upstream-prices";

describe("upstream provider prices (genai-prices)", () => {
  it("prices a known OpenAI model, proportional to tokens", () => {
    const one = upstreamCost("gpt-4o", "openai", 1_000, 500);
    const two = upstreamCost("gpt-4o", "openai", 2_000, 1_000);
    expect(one).to.be.a("number").and.greaterThan(0);
    expect(two).to.be.closeTo(2 * one!, 1e-12);
    // input and output are priced separately: more output costs more than the same input
    expect(upstreamCost("gpt-4o", "openai", 0, 1_000)!).to.be.greaterThan(upstreamCost("gpt-4o", "openai", 1_000, 0)!);
  });

  it("prices a known Anthropic model by its dated id", () => {
    const cost = upstreamCost("claude-sonnet-4-20250514", "anthropic", 1_000_000, 0);
    expect(cost).to.be.a("number").and.greaterThan(0);
    expect(upstreamCost("claude-sonnet-4-20250514", "anthropic", 0, 0)).to.equal(0);
  });

  it("maps our provider names (gemini, xai) to the price data's and strips a provider/ prefix", () => {
    expect(upstreamCost("gemini-2.5-pro", "gemini", 1_000, 1_000)).to.be.greaterThan(0);
    expect(upstreamCost("grok-4", "xai", 1_000, 1_000)).to.be.greaterThan(0);
    const prefixed = upstreamCost("groq/llama-3.3-70b-versatile", "groq", 1_000, 1_000);
    expect(prefixed).to.be.greaterThan(0);
    expect(prefixed).to.equal(upstreamCost("llama-3.3-70b-versatile", "groq", 1_000, 1_000));
    // OpenRouter's own ids keep their vendor part
    expect(upstreamCost("openrouter/anthropic/claude-3.5-sonnet", "openrouter", 1_000, 1_000)).to.be.greaterThan(0);
  });

  it("behind a gateway, takes the provider from the prefix or the model id", () => {
    expect(upstreamCost("gpt-4o", "gateway", 1_000, 500)).to.equal(upstreamCost("gpt-4o", "openai", 1_000, 500));
    expect(upstreamCost("groq/llama-3.3-70b-versatile", "gateway", 1_000, 500)).to.equal(
      upstreamCost("llama-3.3-70b-versatile", "groq", 1_000, 500),
    );
  });

  it("answers null for unknown models, unknown providers, local servers and bad input, never throwing", () => {
    expect(upstreamCost("no-such-model-xyz", "openai", 1_000, 1_000)).to.equal(null);
    expect(upstreamCost("no-such-model-xyz", "gateway", 1_000, 1_000)).to.equal(null);
    expect(upstreamCost("gpt-4o", "no-such-provider", 1_000, 1_000)).to.equal(null);
    expect(upstreamCost("ollama/llama3", "ollama", 1_000, 1_000)).to.equal(null);
    expect(upstreamCost("", "openai", 1_000, 1_000)).to.equal(null);
    expect(upstreamCost("gpt-4o", "openai", -1, 1_000)).to.equal(null);
    expect(upstreamCost("gpt-4o", "openai", Number.NaN, 1_000)).to.equal(null);
    expect(upstreamCost(undefined as unknown as string, undefined as unknown as string, 1, 1)).to.equal(null);
  });

  describe("the price cache", () => {
    // Token counts on both sides of the price data's tiers (200k and 128k prompts among them).
    const usages: [number, number][] = [
      [0, 0],
      [1, 1],
      [1_234, 567],
      [127_999, 4_000],
      [128_001, 4_000],
      [200_001, 33],
      [1_000_000, 1_000_000],
    ];
    const providers = [
      "openai",
      "anthropic",
      "google",
      "x-ai",
      "deepseek",
      "mistral",
      "groq",
      "openrouter",
      "together",
    ];

    it("gives exactly the price data's own figure for every model of the providers we name, tiered and dated ones included", () => {
      let compared = 0;
      for (const providerId of providers) {
        // An id with a slash would lose a prefix we route by (`openai/gpt-oss-120b` on groq): the
        // same lookup both ways is what is compared here, and the prefixes are tested above.
        for (const model of findProvider({ providerId })!.models.filter((m) => !m.id.includes("/"))) {
          for (const round of [1, 2]) {
            for (const [input, output] of usages) {
              const expected = calcPrice({ input_tokens: input, output_tokens: output }, model.id, { providerId });
              const total = expected?.total_price ?? null;
              expect(
                upstreamCost(model.id, providerId, input, output),
                `${providerId} ${model.id} round ${round}`,
              ).to.equal(total);
              compared++;
            }
          }
        }
      }
      expect(compared).to.be.greaterThan(5_000);
    });

    it("prices a known pair many times faster than a lookup in the price data", () => {
      const calls = 3_000;
      upstreamCost("gpt-4o", "openai", 10, 10);
      let start = performance.now();
      for (let i = 0; i < calls; i++)
        calcPrice({ input_tokens: i, output_tokens: 20 }, "gpt-4o", { providerId: "openai" });
      const lookups = performance.now() - start;
      start = performance.now();
      for (let i = 0; i < calls; i++) upstreamCost("gpt-4o", "openai", i, 20);
      const cached = performance.now() - start;
      // ~25 µs a lookup against well under 2 µs cached: a factor of 4 leaves room for a loaded machine.
      expect(cached * 4).to.be.lessThan(lookups);
    });
  });
});
