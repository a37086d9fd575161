import { expect } from "chai";
import { estimatePromptTokens } from "../../workers/agents/prompt-estimate";
import { RunBudget } from "../../workers/agents/run-budget";
import { BudgetExceededError } from "../../workers/agents/call-allowance";
import { recordingPools } from "../helpers/recording-pools";

const limits = (maxTokens: number, maxCost = 100) => ({ maxTokens, maxCost, deadline: Date.now() + 60_000 });
const needs = (prompt: number, output: number) => ({ prompt, output });

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

describe("run budget", () => {
  it("caps a call's output at what is left after its prompt, and refuses a call whose prompt no longer fits", async () => {
    const budget = new RunBudget(limits(100));
    const first = await budget.beforeCall(needs(20, 8_192));
    expect(first.maxTokens).to.equal(80);
    budget.charge(first, { inputTokens: 20, outputTokens: 50, cost: 0.01, replayed: false });
    const second = await budget.beforeCall(needs(20, 8_192));
    expect(second.maxTokens).to.equal(10);
    budget.charge(second, { inputTokens: 20, outputTokens: 5, cost: 0.01, replayed: false });
    const err = await rejectionOf(budget.beforeCall(needs(20, 8_192)));
    expect(err).to.be.instanceOf(BudgetExceededError);
    expect(err.message).to.equal(
      "The run reached its limit of 100 tokens: its next call's prompt (about 20 tokens) does not fit in what is left",
    );
    const last = await budget.beforeCall(needs(1, 8_192));
    expect(last.maxTokens).to.equal(4);
    budget.charge(last, { inputTokens: 1, outputTokens: 4, cost: 0, replayed: false });
    expect((await rejectionOf(budget.beforeCall(needs(1, 8_192)))).message).to.equal(
      "The run reached its limit of 100 tokens",
    );
  });

  it("shares out what is left between calls running side by side instead of granting each all of it", async () => {
    const budget = new RunBudget(limits(1_000));
    const a = await budget.beforeCall(needs(50, 500));
    const b = await budget.beforeCall(needs(50, 500));
    expect([a.maxTokens, b.maxTokens]).to.deep.equal([500, 400]);
    // A third call waits for room: it gets what the first leaves unused once that one is charged.
    let granted = 0;
    const third = budget.beforeCall(needs(50, 500)).then((c) => (granted = c.maxTokens));
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve)); // its first attempt has been made
    expect(granted, "nothing is left while both are in flight").to.equal(0);
    budget.charge(a, { inputTokens: 50, outputTokens: 100, cost: 0, replayed: false });
    expect(await third).to.equal(1_000 - 150 - 450 - 50);
  });

  it("gives a failed call's reservation back, and a call that waits for room stops when the run's signal aborts", async () => {
    const budget = new RunBudget(limits(100));
    const held = await budget.beforeCall(needs(10, 90));
    const controller = new AbortController();
    const waiting = budget.beforeCall(needs(10, 50), controller.signal);
    controller.abort(new Error("cancelled"));
    expect((await rejectionOf(waiting)).name).to.equal("AbortError");
    budget.release(held);
    expect((await budget.beforeCall(needs(10, 90))).maxTokens).to.equal(90);
  });

  it("refuses at the cost limit and past the deadline", async () => {
    const budget = new RunBudget(limits(1_000, 0.5));
    budget.charge(await budget.beforeCall(needs(5, 10)), {
      inputTokens: 5,
      outputTokens: 5,
      cost: 0.5,
      replayed: false,
    });
    expect((await rejectionOf(budget.beforeCall(needs(5, 10)))).message).to.equal(
      "The run reached its cost limit of $0.5",
    );
    const late = new RunBudget({ maxTokens: 1_000, maxCost: 1, deadline: Date.now() - 1 });
    expect((await rejectionOf(late.beforeCall(needs(5, 10)))).message).to.equal("The run reached its time limit");
  });

  it("counts flat charges that fit whole, refuses one that does not, and gives a refund's room back", async () => {
    const budget = new RunBudget(limits(1_000, 0.05));
    await budget.addCharge(0.04, "the auto_search fee");
    const err = await rejectionOf(budget.addCharge(0.02, "an image"));
    expect(err).to.be.instanceOf(BudgetExceededError);
    expect(err.message).to.equal(
      "The run reached its cost limit of $0.05: an image ($0.02) does not fit in what is left",
    );
    expect(budget.cost).to.equal(0.04);
    // A call whose agent's charge would fill what is left has no room for tokens.
    expect((await rejectionOf(budget.beforeCall({ ...needs(5, 10), charge: 0.01 }))).message).to.equal(
      "The run reached its cost limit of $0.05: its next agent's per-agent charge ($0.01) does not fit in what is left",
    );
    await budget.addCharge(0.01, "a search");
    expect((await rejectionOf(budget.beforeCall(needs(5, 10)))).message).to.equal(
      "The run reached its cost limit of $0.05",
    );
    budget.refundCharge(0.01);
    expect((await budget.beforeCall(needs(5, 10))).maxTokens).to.equal(10);
  });

  it("lets the pools check and count a charge every run has with its first call, or when it ends without one", async () => {
    const { calls, pools } = recordingPools();
    const budget = new RunBudget(limits(1_000, 1), pools);
    await budget.addCharge(0.01, "the per-agent charge", { withNextCall: true });
    expect(budget.cost).to.equal(0.01);
    expect(calls, "no round trip of its own").to.deep.equal([]);
    const call = await budget.beforeCall(needs(10, 20));
    budget.charge(call, { inputTokens: 10, outputTokens: 5, cost: 0.002, replayed: false });
    await budget.close();
    expect(calls).to.deep.equal(["reserve 10+20 checking $0.01", "settle 15 tokens $0.012"]);

    const idle = recordingPools();
    const stopped = new RunBudget(limits(1_000, 1), idle.pools);
    await stopped.addCharge(0.01, "the per-agent charge", { withNextCall: true });
    await stopped.close();
    await stopped.close();
    expect(idle.calls, "counted once when the run made no call").to.deep.equal(["charge $0.01"]);
    const err = await rejectionOf(
      new RunBudget(limits(1_000, 0.005), idle.pools).addCharge(0.01, "the per-agent charge", { withNextCall: true }),
    );
    expect(err).to.be.instanceOf(BudgetExceededError);
  });

  it("takes a deferred charge off the bill when the pools have no room for it", async () => {
    for (const when of ["at the first call", "when the run ends"]) {
      const { pools } = recordingPools(true);
      const budget = new RunBudget(limits(1_000, 1), pools);
      let billed = true;
      await budget.addCharge(0.01, "the per-agent charge", { withNextCall: true, undo: () => (billed = false) });
      if (when === "at the first call") {
        expect(await rejectionOf(budget.beforeCall(needs(10, 20)))).to.be.instanceOf(BudgetExceededError);
      }
      await budget.close();
      expect(budget.cost, when).to.equal(0);
      expect(billed, when).to.equal(false);
    }
  });

  it("estimates a prompt from its text, tool calls and tool definitions, and images at a fixed price", () => {
    const text = "x".repeat(300);
    const plain = estimatePromptTokens([{ role: "user", content: text }]);
    expect(plain).to.equal(3 + 4 + 100);
    const withImage = estimatePromptTokens([
      {
        role: "user",
        content: [
          { type: "text", text },
          { type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(90_000)}` } },
        ],
      },
    ]);
    expect(withImage).to.equal(plain + 85);
    expect(estimatePromptTokens([{ role: "user", content: "é".repeat(150) }]), "counted in UTF-8 bytes").to.equal(
      plain,
    );
    const tools = [{ type: "function", function: { name: "pick", parameters: { type: "object" } } }];
    expect(estimatePromptTokens([{ role: "user", content: text }], tools)).to.be.greaterThan(plain);
  });

  it("a replayed step reserves nothing, in the run or the pools, and settles nothing in the pools", async () => {
    const { calls, pools } = recordingPools();
    const budget = new RunBudget(limits(100), pools);
    const replay = await budget.beforeCall({ ...needs(90, 90), replay: true });
    expect(replay.maxTokens).to.equal(90);
    budget.charge(replay, { inputTokens: 90, outputTokens: 5, cost: 0.001, replayed: true });
    expect(calls, "no round trip for a step that costs nothing new").to.deep.equal([]);
    expect(budget.tokens, "it counts in the run").to.equal(95);
  });
});
