import { expect } from "chai";
import { config } from "../../shared/config";
import { setLlmMaxInFlight } from "../../workers/agents/llm-slots";
import { harness, type Harness } from "../helpers/harness";
import { eventually } from "../helpers/http";
import { queueAgentRun } from "../helpers/queued-runs";
import { entriesMentioning } from "../helpers/swarm";

/**
 * Where the provider is the bottleneck (the process's LLM slots, `LLM_MAX_IN_FLIGHT`), calls waiting
 * for a slot are served round-robin across accounts, not first come, first served.
 */
describe("fair LLM slots: calls waiting for a slot take turns by account", function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => (h = await harness()));
  afterEach(() => setLlmMaxInFlight(config.llm.maxInFlight));

  it("serves another account's call after at most one more of an account with many calls waiting", async () => {
    setLlmMaxInFlight(1);
    const [big, small] = [await h.newKey(), await h.newKey()];
    const marker = `slots-${Date.now()}`;
    // Eight runs, one call each, 300 ms a call and one slot: they wait for it one after the other.
    for (let i = 0; i < 8; i++) await queueAgentRun(h, big.key, `${marker}-big-${i}`, 300);
    await eventually(async () => (entriesMentioning(h, `${marker}-big`).length >= 1 ? true : undefined), 20_000, 10);
    await queueAgentRun(h, small.key, `${marker}-small`, 300);
    const order = await eventually(
      async () => {
        const calls = entriesMentioning(h, marker);
        return calls.length === 9
          ? calls.map((e) => (JSON.stringify(e.body.messages).includes("-small") ? "S" : "B"))
          : undefined;
      },
      30_000,
      20,
    );
    // First come, first served would put it last, behind all eight.
    expect(order.indexOf("S"), `calls in the order the provider got them: ${order.join("")}`).to.be.at.most(2);
  });
});
