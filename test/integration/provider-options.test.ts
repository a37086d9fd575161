import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { callsMentioning, uniqueMarker } from "../helpers/swarm";

/** A model Together AI serves (Apiary's catalogue lists it), so the simulator answers it as the provider would. */
const TOGETHER_MODEL = "together/meta-llama/Llama-3.3-70B-Instruct-Turbo";

/**
 * Provider options are an allow-list (shared/llm/provider-options.ts): what a gateway acts on is
 * refused naming the key on every path that takes options, chat completions included, before any
 * run or LLM call; a provider's documented extra reaches the provider for that provider's models.
 * (The agent, swarm and batch paths' refusals are in worker-refusals.test.ts.)
 */
describe("provider options (the allow-list)", () => {
  let h: Harness;
  let key: string;

  before(async function () {
    this.timeout(60_000);
    h = await harness();
    ({ key } = await h.newKey());
  });

  const gatewayOptions: Record<string, unknown> = {
    mock_response: "x",
    extra_body: { temperature: 1 },
    model_list: [{ model_name: "gpt-4o-mini", litellm_params: { api_base: "http://10.0.0.1" } }],
    proxy: "http://10.0.0.1:3128",
    extra_query: { "api-version": "1" },
  };

  it("refuses on /v1/chat/completions, naming the field, what a gateway acts on and another provider's extra", async () => {
    const before = h.sim.journal.length;
    for (const [option, value] of Object.entries({ ...gatewayOptions, top_k: 40 })) {
      const res = await request(h.baseUrl, "POST", "/v1/chat/completions", {
        key,
        body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], [option]: value },
      });
      expect(res.status, `${option}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.error, option).to.include({ type: "invalid_request_error", param: option });
      expect(res.body.error.message, option).to.include(option);
    }
    expect(h.sim.journal.length, "no LLM call").to.equal(before);
  });

  it("refuses them in a reasoning agent's llm_args and HierarchicalSwarm's director_settings, at their key", async () => {
    for (const [option, value] of Object.entries(gatewayOptions)) {
      const reasoning = await request(h.baseUrl, "POST", "/v1/reasoning-agent/completions", {
        key,
        body: { task: "t", llm_args: { [option]: value } },
      });
      expect(reasoning.status, option).to.equal(422);
      expect(reasoning.body.detail.map((d: { loc: unknown[] }) => d.loc)).to.deep.include(["body", "llm_args", option]);
      const swarm = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
        key,
        body: {
          swarm_type: "HierarchicalSwarm",
          task: "t",
          agents: [{ agent_name: "W1" }, { agent_name: "W2" }],
          director_settings: { [option]: value },
        },
      });
      expect(swarm.status, option).to.equal(422);
      expect(swarm.body.detail.map((d: { loc: unknown[] }) => d.loc)).to.deep.include([
        "body",
        "director_settings",
        option,
      ]);
    }
  });

  it("sends a provider's documented extra (top_k) to a model of that provider, from llm_args and from a chat body", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("topk");
    // A local vLLM serves whatever model it loaded, under any name: the simulator's catch-all plays it.
    h.sim.acceptAnyModel(true);
    const agent = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: { agent_name: "Sampler", model_name: "vllm/qwen", llm_args: { top_k: 40, min_p: 0.05 } },
        task: `${marker} agent`,
      },
    }).finally(() => h.sim.acceptAnyModel(false));
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    const chat = await request(h.baseUrl, "POST", "/v1/chat/completions", {
      key,
      body: { model: TOGETHER_MODEL, messages: [{ role: "user", content: `${marker} chat` }], top_k: 7, store: true },
    });
    expect(chat.status, JSON.stringify(chat.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    const agentCall = calls.find((c) => JSON.stringify(c.messages).includes(`${marker} agent`));
    const chatCall = calls.find((c) => JSON.stringify(c.messages).includes(`${marker} chat`));
    expect(agentCall).to.include({ model: "vllm/qwen", top_k: 40, min_p: 0.05 });
    expect(chatCall).to.include({ model: TOGETHER_MODEL, top_k: 7 });
    expect(chatCall).not.to.have.property("store");
  });
});
