import { expect } from "chai";
import { findRun } from "../../../shared/db/run-store";
import { exited, spawnEntry } from "../../helpers/child-process";
import { harness, type Harness } from "../../helpers/harness";
import { eventually, request } from "../../helpers/http";
import { newMarker, postReasoning } from "../../helpers/reasoning";
import { callerOf, callsMentioning } from "../../helpers/swarm";

describe("a worker killed in the middle of a reasoning agent", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("does not lose the run: the retry replays the stored calls, makes the rest once, and the output has every turn", async function () {
    this.timeout(90_000);
    const { key } = await h.newKey();
    const inProcess = h.workers.workers.find((w) => w.name === "swarm")!;
    await inProcess.pause(); // let the child process take the job
    const child = spawnEntry("workers/main.ts", ["--queues", "swarm"], { LOG_LEVEL: "info" });
    try {
      await eventually(async () => (child.output.join("").includes("workers started") ? true : undefined), 30_000);
      const marker = newMarker("reasoning-crash");
      // ReflexionAgent, 2 rounds: act, evaluate, reflect, act (refine), evaluate; one after the other.
      const order = ["Rex", "Rex-evaluator", "Rex-reflector", "Rex", "Rex-evaluator"];
      const accepted = await postReasoning(
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
      );
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
      const runId = accepted.body.job_id;

      await eventually(
        async () => {
          const rows = await h.deps.ds.query("SELECT count(*)::int AS n FROM run_steps WHERE run_id = $1", [runId]);
          return rows[0].n >= 2 ? true : undefined;
        },
        20_000,
        20,
      );
      child.kill("SIGKILL");
      expect(await exited(child)).to.equal("SIGKILL");
      const storedAtKill: { agent_name: string }[] = await h.deps.ds.query(
        "SELECT agent_name FROM run_steps WHERE run_id = $1 ORDER BY seq",
        [runId],
      );
      expect(storedAtKill.length, "the child died before the run ended").to.be.below(order.length);
      const callsAtKill = callsMentioning(h, marker).length;
      inProcess.resume();

      const run = await eventually(async () => {
        const row = await findRun(h.deps.ds, runId);
        return row && row.status !== "running" && row.status !== "queued" ? row : undefined;
      }, 40_000);
      expect(run.status, JSON.stringify(run.error)).to.equal("succeeded");
      expect(run.attempts).to.equal(2);

      const steps: { agent_name: string }[] = await h.deps.ds.query(
        "SELECT agent_name FROM run_steps WHERE run_id = $1 ORDER BY seq",
        [runId],
      );
      expect(steps.map((s) => s.agent_name)).to.deep.equal(order);
      // Stored calls were never made again: only a call in flight at the kill was repeated.
      const calls = callsMentioning(h, marker).map(callerOf);
      const inFlight = callsAtKill - storedAtKill.length;
      expect(inFlight).to.be.at.most(1);
      expect(calls).to.have.length(order.length + inFlight);

      const job = await request(h.baseUrl, "GET", `/v1/jobs/${runId}`, { key });
      expect(job.body).to.include({ status: "success", swarm_type: "ReflexionAgent" });
      expect(job.body.output.map((t: any) => t.role)).to.deep.equal(["user", ...order, "Rex"]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      inProcess.resume();
    }
  });
});
