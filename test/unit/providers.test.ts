import { expect } from "chai";
import { loadConfig } from "../../shared/config";
import { AppError } from "../../shared/errors";
import { hasConfiguredProvider, resolveModel } from "../../shared/llm/providers";

describe("LLM provider registry", () => {
  const keyed = loadConfig({
    OPENAI_API_KEY: "k1",
    ANTHROPIC_API_KEY: "k2",
    GROQ_API_KEY: "k3",
    OPENROUTER_API_KEY: "k4",
  });

  it("routes by provider prefix first, sending the name without the prefix", () => {
    expect(resolveModel("groq/llama-3.3-70b", keyed)).to.include({
      provider: "groq",
      model: "llama-3.3-70b",
      apiKey: "k3",
    });
    expect(resolveModel("openrouter/anthropic/claude-3.5", keyed)).to.include({
      provider: "openrouter",
      model: "anthropic/claude-3.5",
    });
    expect(resolveModel("ollama/llama3", keyed)).to.include({
      provider: "ollama",
      model: "llama3",
      baseUrl: "http://127.0.0.1:11434/v1",
    });
  });

  it("then by name patterns", () => {
    expect(resolveModel("gpt-4.1", keyed)).to.include({
      provider: "openai",
      model: "gpt-4.1",
      baseUrl: "https://api.openai.com/v1",
    });
    expect(resolveModel("o3-mini", keyed).provider).to.equal("openai");
    expect(resolveModel("claude-sonnet-4-20250514", keyed)).to.include({
      provider: "anthropic",
      baseUrl: "https://api.anthropic.com/v1",
    });
  });

  it("rejects a model whose provider has no key with a 400 naming the variable to set", () => {
    const bare = loadConfig({});
    try {
      resolveModel("claude-sonnet-4-20250514", bare);
      expect.fail("should throw");
    } catch (err) {
      expect(err).to.be.instanceOf(AppError);
      expect((err as AppError).status).to.equal(400);
      expect((err as AppError).message).to.include("ANTHROPIC_API_KEY");
    }
    expect(() => resolveModel("mystery-model", bare)).to.throw(/Unknown model 'mystery-model'/);
  });

  it("sends every model to the gateway when LLM_BASE_URL is set", () => {
    const gateway = loadConfig({ LLM_BASE_URL: "http://127.0.0.1:9999/v1", LLM_API_KEY: "g" });
    expect(resolveModel("groq/llama", gateway)).to.deep.equal({
      provider: "gateway",
      model: "groq/llama",
      baseUrl: "http://127.0.0.1:9999/v1",
      apiKey: "g",
    });
    expect(hasConfiguredProvider(gateway)).to.equal(true);
    expect(hasConfiguredProvider(loadConfig({}))).to.equal(false);
    expect(hasConfiguredProvider(loadConfig({ MISTRAL_API_KEY: "m" }))).to.equal(true);
  });
});
