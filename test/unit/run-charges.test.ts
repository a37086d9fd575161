import { expect } from "chai";
import { config } from "../../shared/config";
import { UsageCounter } from "../../workers/agents/agent-context";
import { BudgetExceededError, RunBudget } from "../../workers/agents/run-budget";
import { incur } from "../../workers/agents/run-charges";

const budgetOf = (maxCost: number) => new RunBudget({ maxTokens: 1_000, maxCost, deadline: Date.now() + 60_000 });

describe("charges a run incurs besides its tokens", () => {
  it("an agent beside another buying the same image shares that verdict: refused for one, refused for both", async () => {
    const ctx = { budget: budgetOf(config.pricing.perImage / 2), usage: new UsageCounter() };
    const verdicts = await Promise.allSettled([
      incur(ctx, { kind: "image", image: "https://example.com/x.png" }),
      incur(ctx, { kind: "image", image: "https://example.com/x.png" }),
    ]);
    expect(verdicts.map((v) => v.status)).to.deep.equal(["rejected", "rejected"]);
    for (const v of verdicts) expect((v as PromiseRejectedResult).reason).to.be.instanceOf(BudgetExceededError);
    expect(ctx.usage.images.size, "not on the bill").to.equal(0);
    expect(ctx.budget.cost).to.equal(0);
  });

  it("an image bought by one agent is free for the next, and counted once", async () => {
    const ctx = { budget: budgetOf(10), usage: new UsageCounter() };
    await Promise.all([
      incur(ctx, { kind: "image", image: "https://example.com/y.png" }),
      incur(ctx, { kind: "image", image: "https://example.com/y.png" }),
    ]);
    await incur(ctx, { kind: "image", image: "https://example.com/y.png" });
    expect(ctx.usage.images.size).to.equal(1);
    expect(ctx.budget.cost).to.equal(config.pricing.perImage);
  });
});
