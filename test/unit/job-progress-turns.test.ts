import { expect } from "chai";
import type { Run } from "../../shared/db/entities/run.entity";
import { presentProgress } from "../../shared/runs/presenters/job-progress.presenter";

/** A running run's progress shows each outbound tool call as a tool turn, whoever runs the tool. */
describe("progress turns", () => {
  it("types MCP and built-in tool calls as tool turns and model calls as llm turns", () => {
    const step = (role: string, model: string) => ({
      agent_name: "Researcher",
      role,
      model,
      input_tokens: 1,
      output_tokens: 1,
      cost: 0.000001,
      finished_at: new Date(0),
    });
    const run = { kind: "agent", request: { agent_config: {}, task: "t" } } as unknown as Run;
    const { turns } = presentProgress(run, [
      step("assistant", "gpt-4o-mini"),
      step("tool", "mcp:lookup"),
      step("tool", "tool:web_scraper"),
      step("tool", "tool:auto_search"),
    ]);
    expect(turns.map((t) => [t.model, t.type])).to.deep.equal([
      ["gpt-4o-mini", "llm"],
      ["mcp:lookup", "tool"],
      ["tool:web_scraper", "tool"],
      ["tool:auto_search", "tool"],
    ]);
  });
});
