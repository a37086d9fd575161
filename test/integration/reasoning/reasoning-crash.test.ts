import { expect } from "chai";
import { crashMidRun, storedStepAgents } from "../../helpers/crash-mid-run";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { postReasoning } from "../../helpers/reasoning";
import { callerOf, callsMentioning, uniqueMarker } from "../../helpers/swarm";

describe("a worker killed in the middle of a reasoning agent", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("does not lose the run: the retry replays the stored calls, makes the rest once, and the output has every turn", async function () {
    this.timeout(90_000);
    const { key } = await h.newKey();
    const marker = uniqueMarker("reasoning-crash");
    // ReflexionAgent, 2 rounds: act, evaluate, reflect, act (refine), evaluate; one after the other.
    const order = ["Rex", "Rex-evaluator", "Rex-reflector", "Rex", "Rex-evaluator"];
    let storedAtKill: string[] = [];
    let callsAtKill = 0;
    const { runId } = await crashMidRun(
      h,
      "swarm",
      () =>
        postReasoning(
          h,
          key,
          {
            agent_name: "Rex",
            swarm_type: "ReflexionAgent",
            max_loops: 2,
            task: marker,
            output_type: "dict",
            llm_args: { sim_latency_ms: 400 },
          },
          { prefer: "respond-async" },
        ),
      {
        killAfterSteps: 2,
        stepsInAll: order.length,
        async atKill(stored) {
          storedAtKill = stored;
          callsAtKill = callsMentioning(h, marker).length;
        },
      },
    );

    expect(await storedStepAgents(h, runId)).to.deep.equal(order);
    // Stored calls were never made again: only a call in flight at the kill was repeated.
    const calls = callsMentioning(h, marker).map(callerOf);
    const inFlight = callsAtKill - storedAtKill.length;
    expect(inFlight).to.be.at.most(1);
    expect(calls).to.have.length(order.length + inFlight);

    const job = await request(h.baseUrl, "GET", `/v1/jobs/${runId}`, { key });
    expect(job.body).to.include({ status: "success", swarm_type: "ReflexionAgent" });
    expect(job.body.output.map((t: any) => t.role)).to.deep.equal(["user", ...order, "Rex"]);
  });
});
