import { expect } from "chai";
import { BudgetExceededError, RunBudget } from "../../workers/agents/run-budget";

const limits = (maxTokens: number, maxCost = 100) => ({ maxTokens, maxCost, deadline: Date.now() + 60_000 });

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

describe("run budget", () => {
  it("caps a call's output at what is left, and refuses the next call once the tokens are spent", async () => {
    const budget = new RunBudget(limits(100));
    const first = await budget.beforeCall(8_192);
    expect(first.maxTokens).to.equal(100);
    budget.charge(first, 30, 60, 0.01);
    const second = await budget.beforeCall(8_192);
    expect(second.maxTokens).to.equal(10);
    budget.charge(second, 40, 10, 0.01);
    const err = await rejectionOf(budget.beforeCall(8_192));
    expect(err).to.be.instanceOf(BudgetExceededError);
    expect(err.message).to.equal("The run reached its limit of 100 tokens");
  });

  it("shares out what is left between calls running side by side instead of granting each all of it", async () => {
    const budget = new RunBudget(limits(1_000));
    const a = await budget.beforeCall(600);
    const b = await budget.beforeCall(600);
    expect([a.maxTokens, b.maxTokens]).to.deep.equal([600, 400]);
    // A third call waits for room: it gets what the first leaves unused once that one is charged.
    let granted = 0;
    const third = budget.beforeCall(600).then((c) => (granted = c.maxTokens));
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve)); // its first attempt has been made
    expect(granted, "nothing is left while both are in flight").to.equal(0);
    budget.charge(a, 50, 100, 0);
    expect(await third).to.equal(450);
  });

  it("gives a failed call's reservation back, and a call that waits for room stops when the run's signal aborts", async () => {
    const budget = new RunBudget(limits(100));
    const held = await budget.beforeCall(100);
    const controller = new AbortController();
    const waiting = budget.beforeCall(50, controller.signal);
    controller.abort(new Error("cancelled"));
    expect((await rejectionOf(waiting)).name).to.equal("AbortError");
    budget.release(held);
    expect((await budget.beforeCall(100)).maxTokens).to.equal(100);
  });

  it("refuses at the cost limit and past the deadline", async () => {
    const budget = new RunBudget(limits(1_000, 0.5));
    budget.charge(await budget.beforeCall(10), 5, 5, 0.5);
    expect((await rejectionOf(budget.beforeCall(10))).message).to.equal("The run reached its cost limit of $0.5");
    const late = new RunBudget({ maxTokens: 1_000, maxCost: 1, deadline: Date.now() - 1 });
    expect((await rejectionOf(late.beforeCall(10))).message).to.equal("The run reached its time limit");
  });
});
