import { expect } from "chai";
import { config } from "../../shared/config";
import { UsageCounter } from "../../workers/agents/agent-context";
import { RunBudget } from "../../workers/agents/run-budget";
import { BudgetExceededError } from "../../workers/agents/call-allowance";
import { incur, recordDiscount } from "../../workers/agents/run-charges";
import { StepRecorder } from "../../workers/agents/step-recorder";
import type { DataSource } from "typeorm";
import type { RunCharge } from "../../shared/db/entities/run-charge.entity";
import { recordingPools } from "../helpers/recording-pools";

const budgetOf = (maxCost: number) => new RunBudget({ maxTokens: 1_000, maxCost, deadline: Date.now() + 60_000 });
/** A recorder whose writes never reach a database (these tests never flush it), and the charges an earlier attempt stored. */
const recorder = (earlier: Pick<RunCharge, "charge_key" | "amount">[] = []) =>
  StepRecorder.forRun({} as DataSource, "run", [], undefined, earlier as RunCharge[]);

describe("charges a run incurs besides its tokens", () => {
  it("an agent beside another buying the same image shares that verdict: refused for one, refused for both", async () => {
    const ctx = { budget: budgetOf(config.pricing.perImage / 2), usage: new UsageCounter(), recorder: recorder() };
    const verdicts = await Promise.allSettled([
      incur(ctx, { kind: "image", image: "https://example.com/x.png", agent: "A" }),
      incur(ctx, { kind: "image", image: "https://example.com/x.png", agent: "A" }),
    ]);
    expect(verdicts.map((v) => v.status)).to.deep.equal(["rejected", "rejected"]);
    for (const v of verdicts) expect((v as PromiseRejectedResult).reason).to.be.instanceOf(BudgetExceededError);
    expect(ctx.usage.images.size, "not on the bill").to.equal(0);
    expect(ctx.budget.cost).to.equal(0);
  });

  it("an image bought by one agent is free for the next, and counted once", async () => {
    const ctx = { budget: budgetOf(10), usage: new UsageCounter(), recorder: recorder() };
    await Promise.all([
      incur(ctx, { kind: "image", image: "https://example.com/y.png", agent: "A" }),
      incur(ctx, { kind: "image", image: "https://example.com/y.png", agent: "A" }),
    ]);
    await incur(ctx, { kind: "image", image: "https://example.com/y.png", agent: "A" });
    expect(ctx.usage.images.size).to.equal(1);
    expect(ctx.budget.cost).to.equal(config.pricing.perImage);
  });

  it("a charge an earlier attempt stored is billed again but not counted in the pools twice; one it refunded is made anew", async () => {
    const fee = config.pricing.perMcpCall;
    const { calls, pools } = recordingPools();
    const retried = {
      budget: new RunBudget({ maxTokens: 1_000, maxCost: 10, deadline: Date.now() + 60_000 }, pools),
      usage: new UsageCounter(),
      recorder: recorder([
        { charge_key: "mcp_call/agent#1", amount: fee },
        { charge_key: "mcp_call/agent#3", amount: fee },
        { charge_key: "mcp_call/agent#3/refund", amount: -fee },
      ]),
    };
    await incur(retried, { kind: "mcp_call", tool: "echo", agent: "A", forStep: "agent#1" });
    expect(retried.budget.cost, "on this run's bill").to.equal(fee);
    expect(calls, "not in the pools again").to.deep.equal([]);
    // The call an earlier attempt refunded (it failed) is made again: a new charge, in the pools too.
    await incur(retried, { kind: "mcp_call", tool: "echo", agent: "A", forStep: "agent#3" });
    expect(calls).to.deep.equal([`charge $${fee}`]);
    expect(retried.usage.mcpCalls).to.equal(2);
    expect(retried.recorder.chargedSoFar("mcp_call/agent#3~2"), "stored under a key of its own").to.equal(fee);
  });

  it("a refund of a charge an earlier attempt made is credited to the pools", async () => {
    const fee = config.pricing.perMcpCall;
    const { calls, pools } = recordingPools();
    const retried = {
      budget: new RunBudget({ maxTokens: 1_000, maxCost: 10, deadline: Date.now() + 60_000 }, pools),
      usage: new UsageCounter(),
      recorder: recorder([{ charge_key: "mcp_call/agent#1", amount: fee }]),
    };
    // Made earlier, refunded now (the call failed this time): the pools are credited.
    const refundNow = await incur(retried, { kind: "mcp_call", tool: "echo", agent: "A", forStep: "agent#1" });
    refundNow();
    expect(calls).to.deep.equal([`charge $${-fee}`]);
    expect(retried.budget.cost).to.equal(0);
  });

  it("a discount a retry takes back is added to the pools; one it gives is taken off", () => {
    const { calls, pools } = recordingPools();
    const budget = new RunBudget({ maxTokens: 1_000, maxCost: 10, deadline: Date.now() + 60_000 }, pools);
    const usage = new UsageCounter();
    // An earlier attempt recorded a discount of 0.002; this one, priced in daytime, gives none.
    const taken = { budget, usage, recorder: recorder([{ charge_key: "discount@first", amount: -0.002 }]) };
    recordDiscount(taken, "second");
    expect(taken.recorder.chargedSoFar("discount")).to.be.closeTo(0, 1e-12);
    usage.discount = 0.003;
    recordDiscount({ budget, usage, recorder: recorder() }, "third");
    expect(calls).to.deep.equal(["adjust $0.002", "adjust $-0.003"]);
  });
});
