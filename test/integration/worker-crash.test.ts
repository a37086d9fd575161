import { expect } from "chai";
import { findRun } from "../../shared/db/runs/run-rows";
import { harness, type Harness } from "../helpers/harness";
import { exited, spawnEntry } from "../helpers/child-process";
import { eventually, request } from "../helpers/http";
import { entriesMentioning } from "../helpers/swarm";

describe("a worker killed mid-run", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });

  it("does not lose the run: the job is retried, finished steps are replayed, and the run ends", async function () {
    this.timeout(60_000);
    const { key } = await h.newKey();
    const inProcess = h.workers.workers.find((w) => w.name === "agent")!;
    await inProcess.pause(); // let the child process take the job
    const child = spawnEntry("workers/main.ts", ["--queues", "agent"], { LOG_LEVEL: "info" });
    try {
      await eventually(async () => (child.output.join("").includes("workers started") ? true : undefined), 30_000);
      const marker = `crash-${Date.now()}`;
      const accepted = await request(h.baseUrl, "POST", "/v1/agent/completions", {
        key,
        headers: { prefer: "respond-async" },
        body: {
          agent_config: { agent_name: "Survivor", max_loops: 2, llm_args: { sim_latency_ms: 1_500 } },
          task: marker,
        },
      });
      expect(accepted.status).to.equal(202);
      const runId = accepted.body.job_id;

      // Kill the worker once the first turn is stored and the second is in flight.
      await eventually(async () => {
        const steps = await h.deps.ds.query("SELECT count(*)::int AS n FROM run_steps WHERE run_id = $1", [runId]);
        return steps[0].n === 1 ? true : undefined;
      }, 20_000);
      child.kill("SIGKILL");
      expect(await exited(child)).to.equal("SIGKILL");
      inProcess.resume();

      const run = await eventually(async () => {
        const row = await findRun(h.deps.ds, runId);
        return row && row.status !== "running" && row.status !== "queued" ? row : undefined;
      }, 30_000);
      expect(run.status).to.equal("succeeded");
      expect(run.attempts).to.equal(2);
      // Two finished turns; the call the kill interrupted, if it had reached the provider, is billed apart.
      const steps: { status: string }[] = await h.deps.ds.query(
        "SELECT status FROM run_steps WHERE run_id = $1 ORDER BY seq",
        [runId],
      );
      expect(steps.filter((s) => s.status === "finished")).to.have.length(2);
      expect(
        steps
          .filter((s) => s.status !== "finished")
          .map((s) => s.status)
          .join(),
      ).to.be.oneOf(["", "interrupted"]);

      // The first turn was replayed from Postgres, not asked again: 1 call before the crash
      // for turn 1, the interrupted call for turn 2, and its retry.
      const calls = entriesMentioning(h, marker);
      const firstTurnCalls = calls.filter(
        (e: any) => e.body.messages.filter((m: any) => m.role === "assistant").length === 0,
      );
      expect(firstTurnCalls).to.have.length(1);
      const job = await request(h.baseUrl, "GET", `/v1/jobs/${runId}`, { key });
      expect(job.body).to.include({ status: "success", name: "Survivor" });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      inProcess.resume();
    }
  });
});
