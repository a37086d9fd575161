import { expect } from "chai";
import { buildReply } from "../../scripts/llm-simulator/reply";
import { scriptFor } from "../../scripts/llm-simulator/scripts";
import type { ChatRequest } from "../../scripts/llm-simulator/types";

const tool = {
  type: "function" as const,
  function: { name: "decide", parameters: { type: "object", properties: { pick: { type: "string" } } } },
};
const forced = (messages: ChatRequest["messages"]): ChatRequest => ({
  model: "gpt-4o",
  messages,
  tools: [tool],
  tool_choice: { type: "function", function: { name: "decide" } },
});

/** The simulator's scripting of structured decisions, which the builder's repair tests rely on. */
describe("LLM simulator: scripted decisions", () => {
  it("a forced call takes a JSON-object reply as its arguments, verbatim (even when the schema would not allow it)", () => {
    const reply = buildReply(
      forced([{ role: "user", content: "go" }]),
      { latencyMs: 0, reply: '{"pick":7}' },
      () => "k",
    );
    expect(reply.toolCalls).to.have.length(1);
    expect(JSON.parse(reply.toolCalls[0].function.arguments)).to.deep.equal({ pick: 7 });
  });

  it("a reply that is not a JSON object leaves the forced call's sampled arguments alone", () => {
    const sampled = buildReply(forced([{ role: "user", content: "go" }]), { latencyMs: 0 }, () => "k");
    for (const text of ["verdict", "[1]", '"x"']) {
      const reply = buildReply(forced([{ role: "user", content: "go" }]), { latencyMs: 0, reply: text }, () => "k");
      expect(reply.toolCalls[0].function.arguments).to.equal(sampled.toolCalls[0].function.arguments);
    }
  });

  it("scripts match tool messages too (a repair quoting a problem), not the assistant's own words", () => {
    const scripts = [
      { contains: "task-1", reply: "first" },
      { contains: "problem-1", reply: "repair" },
    ];
    const messages: ChatRequest["messages"] = [
      { role: "user", content: "task-1" },
      { role: "assistant", content: "problem-2" },
    ];
    expect(scriptFor(scripts, forced(messages))?.reply).to.equal("first");
    const repair = [...messages, { role: "tool", content: "invalid: problem-1", tool_call_id: "c" }];
    expect(scriptFor(scripts, forced(repair))?.reply).to.equal("repair");
    expect(scriptFor([{ contains: "problem-2", reply: "x" }], forced(messages))).to.equal(undefined);
  });
});
