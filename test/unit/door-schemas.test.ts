import { expect } from "chai";
import { agentCompletionSchema } from "../../api/schemas/agent-request.schema";
import { validateRequest } from "../../api/schemas/validate-request";
import { RESERVED_LLM_ARGS } from "../../shared/contracts/llm-args";

/** Validates an agent completion body; a rule that throws instead of refusing would be a 500. */
function issues(agentConfig: Record<string, unknown>): string[] {
  const { error } = validateRequest(agentCompletionSchema, { agent_config: agentConfig, task: "t" });
  return error?.details.map((d) => `${d.path.join(".")}: ${d.type}`) ?? [];
}

describe("the door's request schemas", () => {
  it("compare array items for uniqueness without failing on the items they refuse", () => {
    for (const field of ["tools_list_dictionary", "handoffs"]) {
      expect(issues({ [field]: [null, null, 7, "x"] }), field).to.deep.equal(
        [0, 1, 2, 3].map((i) => `agent_config.${field}.${i}: object.base`),
      );
    }
  });

  it("refuse a second tool or handoff of one name, naming it", () => {
    expect(
      issues({ tools_list_dictionary: [{ name: "a" }, null, { type: "function", function: { name: "a" } }] }),
    ).to.deep.equal([
      "agent_config.tools_list_dictionary.1: object.base",
      "agent_config.tools_list_dictionary.2: array.unique",
    ]);
    expect(issues({ handoffs: [{}, { agent_name: " Agent " }] })).to.deep.equal([
      "agent_config.handoffs.1: array.unique",
    ]);
  });

  it("take llm_args at the edges of the ranges providers document, with null and the simulator's sim_* controls", () => {
    const accepted: Record<string, unknown>[] = [
      { temperature: 0, top_p: 0, n: 1, presence_penalty: -2, frequency_penalty: 2, seed: -7 },
      {
        temperature: 2,
        top_p: 1,
        stop: ["", "a", "b", "c"],
        logit_bias: { "50256": -100, "13": 100 },
        logprobs: true,
        top_logprobs: 20,
      },
      {
        stop: "END",
        logprobs: false,
        top_logprobs: null,
        user: "",
        parallel_tool_calls: false,
        reasoning_effort: "minimal",
      },
      {
        metadata: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`${"k".repeat(62)}${i}`, "v".repeat(512)])),
      },
      Object.fromEntries(
        [
          "temperature",
          "top_p",
          "n",
          "seed",
          "stop",
          "logit_bias",
          "logprobs",
          "top_logprobs",
          "user",
          "metadata",
          "reasoning_effort",
        ].map((k) => [k, null]),
      ),
      {
        sim_reply: "hi",
        sim_latency_ms: 300,
        sim_error: 400,
        sim_error_times: 2,
        sim_retry_after_ms: 10,
        sim_tool_arguments: { search: { query: "bees" } },
      },
    ];
    for (const llmArgs of accepted) expect(issues({ llm_args: llmArgs }), JSON.stringify(llmArgs)).to.deep.equal([]);
  });

  it("refuse in llm_args every field the service sets itself, null included", () => {
    for (const field of RESERVED_LLM_ARGS) {
      for (const value of [null, "x", true, []])
        expect(issues({ llm_args: { [field]: value } }), `${field}: ${JSON.stringify(value)}`).to.deep.equal([
          `agent_config.llm_args.${field}: any.unknown`,
        ]);
    }
  });

  it("keep every llm_args problem, none dropped by the request's stripUnknown", () => {
    expect(
      issues({ llm_args: { logit_bias: { "1": 1, abc: 1 }, metadata: { [`${"k".repeat(65)}`]: "v" } } }),
    ).to.deep.equal([
      "agent_config.llm_args.logit_bias.abc: object.unknown",
      `agent_config.llm_args.metadata.${"k".repeat(65)}: object.unknown`,
    ]);
  });
});
