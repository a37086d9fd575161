import { expect } from "chai";
import { loadConfig } from "../../shared/config";
import { isNightTime, roundCost, tokenCosts } from "../../shared/llm/pricing";
import { agentUsage } from "../../workers/agents/agent-usage";
import { UsageCounter } from "../../workers/agents/agent-context";

describe("pricing", () => {
  const pricing = loadConfig({}).pricing;

  it("prices tokens per million and rounds to 6 decimals", () => {
    const { inputCost, outputCost } = tokenCosts(1_000_000, 2_000_000, pricing);
    expect(inputCost).to.equal(6.5);
    expect(outputCost).to.equal(37);
    expect(roundCost(0.1234564)).to.equal(0.123456);
    expect(roundCost(0.1234566)).to.equal(0.123457);
  });

  it("builds the agent completion usage object with image, MCP and agent charges", () => {
    const counter = Object.assign(new UsageCounter(), { inputTokens: 1000, outputTokens: 500, mcpCalls: 3 });
    counter.images.add("a.png").add("b.png").add("a.png");
    counter.addCaller("a", false);
    const usage = agentUsage(counter, pricing);
    expect(usage).to.deep.equal({
      input_tokens: 1000,
      output_tokens: 500,
      total_tokens: 1500,
      img_cost: 0.5,
      mcp_cost: 0.3,
      total_cost: roundCost(0.0065 + 0.00925 + 0.5 + 0.3 + 0.01),
    });
  });

  it("knows the night-time window in Los Angeles, across midnight", () => {
    // 2026-01-15: PST is UTC-8.
    expect(isNightTime(new Date("2026-01-15T04:30:00Z"), pricing)).to.equal(true); // 20:30 the evening before
    expect(isNightTime(new Date("2026-01-15T13:59:00Z"), pricing)).to.equal(true); // 05:59
    expect(isNightTime(new Date("2026-01-15T14:00:00Z"), pricing)).to.equal(false); // 06:00
    expect(isNightTime(new Date("2026-01-15T03:59:00Z"), pricing)).to.equal(false); // 19:59
  });
});
