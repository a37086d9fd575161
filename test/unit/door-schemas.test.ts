import { expect } from "chai";
import { agentCompletionSchema } from "../../api/routes/v1/agent/agent.schema";
import { validateRequest } from "../../api/schemas/validate-request";

/** Validates an E5 body; a rule that throws instead of refusing would be a 500. */
function issues(agentConfig: Record<string, unknown>): string[] {
  const { error } = validateRequest(agentCompletionSchema, { agent_config: agentConfig, task: "t" });
  return error?.details.map((d) => `${d.path.join(".")}: ${d.type}`) ?? [];
}

describe("the door's request schemas", () => {
  it("compare array items for uniqueness without failing on the items they refuse", () => {
    for (const field of ["tools_list_dictionary", "handoffs"]) {
      expect(issues({ [field]: [null, null, 7, "x"] }), field).to.deep.equal([0, 1, 2, 3].map((i) => `agent_config.${field}.${i}: object.base`));
    }
  });

  it("refuse a second tool or handoff of one name, naming it", () => {
    expect(issues({ tools_list_dictionary: [{ name: "a" }, null, { type: "function", function: { name: "a" } }] })).to.deep.equal([
      "agent_config.tools_list_dictionary.1: object.base",
      "agent_config.tools_list_dictionary.2: array.unique",
    ]);
    expect(issues({ handoffs: [{}, { agent_name: " Agent " }] })).to.deep.equal(["agent_config.handoffs.1: array.unique"]);
  });
});
