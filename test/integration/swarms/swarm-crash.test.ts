import { expect } from "chai";
import { findRun } from "../../../shared/db/runs/run-rows";
import { crashMidRun } from "../../helpers/crash-mid-run";
import { harness, type Harness } from "../../helpers/harness";
import { request } from "../../helpers/http";
import { agent, callerOf, callsMentioning, inputOf, postSwarm } from "../../helpers/swarm";

describe("a swarm worker killed in the middle of a SequentialWorkflow", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("does not lose the run: the retry replays the stored agent steps, runs the rest once, and the output has every turn in order", async function () {
    this.timeout(90_000);
    const { key } = await h.newKey();
    const marker = `swarm-crash-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const names = ["Scout", "Analyst", "Planner", "Builder", "Reviewer"];
    let runId = "";
    let finishedBeforeKill: string[] = [];
    let calledBeforeKill: string[] = [];
    ({ runId } = await crashMidRun(
      h,
      "swarm",
      async () => {
        const accepted = await postSwarm(
          h,
          key,
          {
            name: "Crashable",
            swarm_type: "SequentialWorkflow",
            agents: names.map((n) => agent(n, { llm_args: { sim_latency_ms: 400 } })),
            task: marker,
          },
          { prefer: "respond-async" },
        );
        runId = accepted.body.job_id;
        return accepted;
      },
      {
        // Killed once two agents' steps are stored (the third agent's call is then in flight).
        killAfterSteps: 2,
        stepsInAll: names.length,
        async atKill(stored) {
          finishedBeforeKill = stored;
          expect(finishedBeforeKill).to.deep.equal(names.slice(0, finishedBeforeKill.length));
          // Who had been called before the kill (finished or in flight).
          calledBeforeKill = callsMentioning(h, marker).map(callerOf);
          expect((await findRun(h.deps.ds, runId))?.status).to.equal("running");
        },
      },
    ));

    // One stored step per agent, in order: nothing was recorded twice.
    const steps: { agent_name: string; seq: number }[] = await h.deps.ds.query(
      "SELECT agent_name, seq FROM run_steps WHERE run_id = $1 AND status = 'finished' ORDER BY seq",
      [runId],
    );
    expect(steps.map((s) => s.agent_name)).to.deep.equal(names);

    // The journal: agents whose step was stored before the kill were never asked again; agents not
    // yet reached were asked once; only a call cut off by the kill was asked again, once.
    const calls = callsMentioning(h, marker).map(callerOf);
    for (const name of names) {
      const count = calls.filter((c) => c === name).length;
      const interrupted = calledBeforeKill.includes(name) && !finishedBeforeKill.includes(name);
      expect(
        count,
        `LLM calls of ${name} (stored before kill: ${finishedBeforeKill.includes(name)}, in flight at kill: ${interrupted})`,
      ).to.equal(interrupted ? 2 : 1);
    }
    const interrupted = calledBeforeKill.filter((n) => !finishedBeforeKill.includes(n));
    expect(interrupted.length, "at most one call (the current agent's) was in flight at the kill").to.be.at.most(1);
    const answered = [...calls];
    for (const n of interrupted) answered.splice(answered.indexOf(n), 1);
    expect(answered, "apart from the interrupted call, each agent was called exactly once, in order").to.deep.equal(
      names,
    );

    const job = await request(h.baseUrl, "GET", `/v1/jobs/${runId}`, { key });
    expect(job.body).to.include({
      status: "success",
      swarm_type: "SequentialWorkflow",
      swarm_name: "Crashable",
      number_of_agents: 5,
    });
    expect(job.body.output.map((t: any) => t.role)).to.deep.equal(names);
    // Each turn builds on the replayed ones: the last agent saw all four earlier turns, attributed.
    const last = callsMentioning(h, marker).at(-1);
    expect(callerOf(last)).to.equal("Reviewer");
    expect(inputOf(last)).to.equal(
      [marker, ...job.body.output.slice(0, 4).map((t: any) => `${t.role}: ${t.content}`)].join("\n\n"),
    );
  });
});
