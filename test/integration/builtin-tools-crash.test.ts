import { expect } from "chai";
import { config } from "../../shared/config";
import { findRun } from "../../shared/db/run-store";
import { SEARCH_PORT } from "../env";
import { exited, spawnEntry } from "../helpers/child-process";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { startSearchServer, type SearchServer } from "../helpers/search-server";

describe("a worker killed after a built-in search", () => {
  let h: Harness;
  let search: SearchServer;
  before(async () => {
    h = await harness();
    search = await startSearchServer(SEARCH_PORT);
  });
  after(async () => {
    await search?.close();
  });

  it("replays the finished search on the retry instead of searching again", async function () {
    this.timeout(60_000);
    const { key } = await h.newKey();
    const inProcess = h.workers.workers.find((w) => w.name === "agent")!;
    await inProcess.pause(); // let the child process take the job
    const child = spawnEntry("workers/main.ts", ["--queues", "agent"], { LOG_LEVEL: "info" });
    try {
      await eventually(async () => (child.output.join("").includes("workers started") ? true : undefined), 30_000);
      const marker = `search-crash-${Date.now()}`;
      const accepted = await request(h.baseUrl, "POST", "/v1/agent/completions", {
        key,
        headers: { prefer: "respond-async" },
        body: {
          agent_config: { agent_name: "Searcher", tool_call_summary: false, llm_args: { sim_latency_ms: 1_500 } },
          task: marker,
          tools_enabled: ["auto_search"],
        },
      });
      expect(accepted.status).to.equal(202);
      const runId = accepted.body.job_id;

      // Kill the worker once the tool call and the search are stored and the answer is in flight.
      await eventually(async () => {
        const steps = await h.deps.ds.query("SELECT count(*)::int AS n FROM run_steps WHERE run_id = $1", [runId]);
        return steps[0].n === 2 ? true : undefined;
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
      const steps = await h.deps.ds.query("SELECT model FROM run_steps WHERE run_id = $1 ORDER BY seq", [runId]);
      const model = config.llm.defaultModel;
      expect(steps.map((s: { model: string }) => s.model)).to.deep.equal([model, "tool:auto_search", model]);
      // One search in all: the retry read it back from Postgres.
      expect(search.requests).to.have.length(1);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      inProcess.resume();
    }
  });
});
