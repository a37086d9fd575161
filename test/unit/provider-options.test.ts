import { expect } from "chai";
import { chatRunOf, type ChatCompletionRequest } from "../../api/runs/chat-request";
import { agentCompletionSchema } from "../../api/schemas/agent-request.schema";
import { chatCompletionSchema } from "../../api/schemas/chat-completion.schema";
import { validateRequest } from "../../api/schemas/validate-request";
import { config, type Config } from "../../shared/config";
import type { AgentSpec } from "../../shared/contracts/agent-spec";
import { allowedOptionsOf, allowedProviderOptions } from "../../shared/llm/provider-options";
import { resolveModel } from "../../shared/llm/providers";
import { buildChatRequest } from "../../workers/agents/llm-request";

/** Options a gateway acts on (LiteLLM, OpenRouter, SDKs): where a call goes, its keys, headers, a canned answer. */
const GATEWAY_OPTIONS = [
  "extra_body",
  "extra_headers",
  "extra_query",
  "api_key",
  "api_base",
  "base_url",
  "model_list",
  "router_settings",
  "proxy",
  "mock_response",
  "fallbacks",
  "provider",
  "models",
  "route",
  "thinking",
  "reasoning",
];

const withSimulator = (simulator: boolean): Config => ({ ...config, llm: { ...config.llm, simulator } });

/** Validates an agent completion body's agent; each problem as `path: type`. */
function issues(agentConfig: Record<string, unknown>): string[] {
  const { error } = validateRequest(agentCompletionSchema, { agent_config: agentConfig, task: "t" });
  return error?.details.map((d) => `${d.path.join(".")}: ${d.type}`) ?? [];
}

/** The first problem's message, for what a client reads. */
function message(agentConfig: Record<string, unknown>): string | undefined {
  return validateRequest(agentCompletionSchema, { agent_config: agentConfig, task: "t" }).error?.details[0].message;
}

describe("provider options (the allow-list)", () => {
  it("gives every model OpenAI's options and each provider only the extras it documents", () => {
    const extras = (model: string) =>
      [...allowedProviderOptions(model, withSimulator(false))].filter((o) => !allowedProviderOptions("gpt-4o").has(o));
    expect(allowedProviderOptions("gpt-4o", withSimulator(false))).to.include.keys("temperature", "response_format");
    expect(extras("gpt-4o")).to.deep.equal([]);
    expect(extras("claude-sonnet-4-20250514")).to.deep.equal([]);
    expect(extras("a-model-no-rule-names")).to.deep.equal([]);
    expect(extras("vllm/qwen")).to.have.members(["top_k", "min_p", "repetition_penalty"]);
    expect(extras("hosted_vllm/qwen")).to.have.members(["top_k", "min_p", "repetition_penalty"]);
    expect(extras("together_ai/llama")).to.have.members(["top_k", "min_p", "repetition_penalty"]);
    expect(extras("openrouter/x/y")).to.have.members(["top_k", "min_p", "top_a", "repetition_penalty"]);
    expect(extras("lm_studio/qwen")).to.have.members(["top_k", "repeat_penalty"]);
    expect(extras("mistral-large-latest")).to.have.members(["safe_prompt"]);
  });

  it("lists no option a gateway acts on, for any provider", () => {
    for (const model of ["gpt-4o", "vllm/q", "together/q", "openrouter/q", "lmstudio/q", "mistral-small", "groq/q"])
      for (const option of GATEWAY_OPTIONS)
        expect(allowedProviderOptions(model, withSimulator(true)).has(option as never), `${model} ${option}`).to.equal(
          false,
        );
  });

  it("takes the simulator's sim_* controls only when the deployment says the simulator answers", () => {
    expect(allowedProviderOptions("gpt-4o", withSimulator(true))).to.include.keys("sim_latency_ms", "sim_reply");
    expect(
      [...allowedProviderOptions("gpt-4o", withSimulator(false))].filter((o) => o.startsWith("sim_")),
    ).to.deep.equal([]);
    expect(allowedOptionsOf({ sim_reply: "x", top_p: 0.5 }, "gpt-4o", withSimulator(false))).to.deep.equal({
      top_p: 0.5,
    });
  });

  it("refuses in llm_args every option not on the list, naming it, whatever its value", () => {
    for (const option of GATEWAY_OPTIONS)
      for (const value of [null, "x", { a: 1 }, [{ model_name: "m", api_key: "k" }]])
        expect(issues({ llm_args: { top_p: 0.5, [option]: value } }), option).to.deep.equal([
          `agent_config.llm_args.${option}: object.unknown`,
        ]);
    expect(message({ llm_args: { mock_response: "x" } })).to.match(
      /^"agent_config\.llm_args\.mock_response" is not a provider option/,
    );
  });

  it("takes a provider's extra only for a model of that provider, and checks its value", () => {
    expect(
      issues({ model_name: "vllm/qwen", llm_args: { top_k: 40, min_p: 0.05, repetition_penalty: 1.1 } }),
    ).to.deep.equal([]);
    expect(issues({ model_name: "openrouter/meta/llama", llm_args: { top_a: 0.2 } })).to.deep.equal([]);
    expect(issues({ model_name: "gpt-4o-mini", llm_args: { top_k: 40 } })).to.deep.equal([
      "agent_config.llm_args.top_k: options.provider",
    ]);
    expect(message({ model_name: "gpt-4o-mini", llm_args: { top_k: 40 } })).to.equal(
      `"agent_config.llm_args.top_k" is taken only by models of vllm, together, openrouter, lmstudio, not by 'gpt-4o-mini'`,
    );
    expect(issues({ model_name: "vllm/qwen", llm_args: { top_k: 1.5, min_p: 2 } })).to.deep.equal([
      "agent_config.llm_args.top_k: number.integer",
      "agent_config.llm_args.min_p: number.max",
    ]);
  });

  it("checks nested values: response_format's keys are OpenAI's, only its JSON schema is free-form", () => {
    const format = (jsonSchema: Record<string, unknown>) => ({
      llm_args: { response_format: { type: "json_schema", json_schema: { name: "answer", ...jsonSchema } } },
    });
    expect(issues(format({ strict: true, schema: { properties: { base_url: { type: "string" } } } }))).to.deep.equal(
      [],
    );
    expect(issues(format({ api_base: "http://10.0.0.1/v1" }))).to.deep.equal([
      "agent_config.llm_args.response_format.json_schema.api_base: object.unknown",
    ]);
    expect(issues({ llm_args: { response_format: { type: "json_object", extra_body: {} } } })).to.deep.equal([
      "agent_config.llm_args.response_format.extra_body: object.unknown",
    ]);
  });

  it("forwards to the provider only the options on the list for the agent's model", () => {
    const spec = (model_name: string, llm_args: Record<string, unknown>): AgentSpec => {
      const { value } = validateRequest(agentCompletionSchema, { agent_config: { model_name }, task: "t" });
      return { ...value.agent_config, llm_args };
    };
    const sent = (s: AgentSpec) => buildChatRequest(s, resolveModel(s.model_name), [], { loop: 0 });
    const stored = {
      top_p: 0.5,
      top_k: 40,
      mock_response: "x",
      api_base: "http://10.0.0.1",
      model: "other",
      sim_reply: "r",
    };
    const toOpenAi = sent(spec("gpt-4o-mini", stored));
    expect(toOpenAi).to.include({ top_p: 0.5, sim_reply: "r" });
    for (const dropped of ["top_k", "mock_response", "api_base"]) expect(toOpenAi).not.to.have.property(dropped);
    expect(toOpenAi).not.to.have.property("model");
    expect(sent(spec("vllm/qwen", stored))).to.include({ top_p: 0.5, top_k: 40 });
  });

  describe("on /v1/chat/completions", () => {
    const check = (body: Record<string, unknown>) =>
      validateRequest(chatCompletionSchema, { messages: [{ role: "user", content: "hi" }], ...body });

    it("refuses a field that is neither OpenAI's nor on the model's list, naming it", () => {
      for (const option of ["mock_response", "extra_body", "model_list", "proxy", "extra_query", "api_base"]) {
        const { error } = check({ model: "gpt-4o", [option]: "x" });
        expect(
          error?.details.map((d) => `${d.path.join(".")}: ${d.type}`),
          option,
        ).to.deep.equal([`${option}: object.unknown`]);
      }
      expect(check({ model: "gpt-4o", top_k: 5 }).error?.details[0]).to.include({ type: "options.provider" });
    });

    it("passes a provider's extra to the model and leaves OpenAI's ignored fields out", () => {
      const { value, error } = check({ model: "vllm/qwen", top_k: 5, store: true, metadata: { a: "b" }, top_p: 0.3 });
      expect(error).to.equal(undefined);
      const { request } = chatRunOf(value as ChatCompletionRequest);
      expect(request.options).to.deep.equal({ top_k: 5, top_p: 0.3 });
    });
  });
});
