import { expect } from "chai";
import { config } from "../../shared/config";
import { inFlightKey } from "../../workers/agents/spend-pools";
import { crashMidRun } from "../helpers/crash-mid-run";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { agent, postSwarm, uniqueMarker } from "../helpers/swarm";
import { dataUrl, PNG_1PX } from "../helpers/images";
import { callInFlight, expectPoolMatchesLedger, notedCalls, runLedger } from "../helpers/ledger";

describe("a worker killed while its call is with the provider: billed once, counted once", () => {
  let h: Harness;
  before(async () => (h = await harness()));

  it("bills the interrupted call's prompt, and the retry counts no flat charge twice in the account's day", async function () {
    this.timeout(60_000);
    const { key, userId } = await h.newKey();
    // Killed once its first turn is stored and its second is with the provider.
    const { runId, run } = await crashMidRun(
      h,
      "agent",
      () =>
        request(h.baseUrl, "POST", "/v1/agent/completions", {
          key,
          headers: { prefer: "respond-async" },
          body: {
            agent_config: { agent_name: "Survivor", max_loops: 2, llm_args: { sim_latency_ms: 1_500 } },
            task: `crash-billing-${Date.now()}`,
            img: dataUrl(PNG_1PX),
          },
        }),
      { killAfterSteps: 1, killWhen: callInFlight(h) },
    );

    const ledger = await runLedger(h, runId);
    expect(ledger.steps.map((s) => s.status)).to.deep.equal(["finished", "interrupted", "finished"]);
    const interrupted = ledger.steps[1];
    expect(interrupted.input_tokens, "its prompt is billed").to.be.greaterThan(0);
    expect(interrupted.output_tokens).to.equal(0);
    expect(interrupted.step_key.startsWith(ledger.steps[2].step_key)).to.equal(true);
    expect(ledger.charges.map((c) => c.kind).sort()).to.deep.equal(["agent", "image"]);
    expect(
      ledger.ledger,
      `the bill is the ledger, the interrupted call included: ${JSON.stringify({ usage: run.usage, ledger })}`,
    ).to.be.closeTo(ledger.billed!, 1e-6);
    const usage = run.usage as { input_tokens: number };
    expect(usage.input_tokens).to.equal(ledger.steps.reduce((sum, s) => sum + s.input_tokens, 0));

    // The day's pool counted each charge once (the image and the agent were charged again on the
    // retry, but only in the run), holds no reservation, and no call is left noted in flight.
    await expectPoolMatchesLedger(h, userId);
    expect(await h.deps.redis.hlen(inFlightKey(runId, config.queue.prefix))).to.equal(0);
  });

  it("bills only the calls that had reached the provider, not those waiting for a slot of LLM_MAX_IN_FLIGHT", async function () {
    this.timeout(60_000);
    const { key, userId } = await h.newKey();
    const noted = (runId: string) => h.deps.redis.hlen(inFlightKey(runId, config.queue.prefix));
    const { runId } = await crashMidRun(
      h,
      "swarm",
      () =>
        postSwarm(
          h,
          key,
          {
            swarm_type: "ConcurrentWorkflow",
            task: uniqueMarker("slots"),
            agents: ["A", "B", "C"].map((name) => agent(name, { llm_args: { sim_latency_ms: 4_000 } })),
          },
          { prefer: "respond-async" },
        ),
      {
        killAfterSteps: 0,
        // All three reserved room; the child's one slot let one go to the provider, marked sent.
        killWhen: async (id) => {
          const { noted, sent } = await notedCalls(h, id);
          return noted === 3 && sent === 1;
        },
        childEnv: { LLM_MAX_IN_FLIGHT: "1" },
      },
    );
    const ledger = await runLedger(h, runId);
    expect(ledger.steps.filter((s) => s.status === "interrupted")).to.have.length(1);
    expect(
      ledger.steps.filter((s) => s.status === "finished"),
      JSON.stringify(ledger.steps),
    ).to.have.length(3);
    expect(ledger.ledger).to.be.closeTo(ledger.billed!, 1e-6);
    await expectPoolMatchesLedger(h, userId);
    expect(await noted(runId)).to.equal(0);
  });
});
