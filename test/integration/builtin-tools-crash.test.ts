import { expect } from "chai";
import { config } from "../../shared/config";
import { crashMidRun } from "../helpers/crash-mid-run";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { searchServerForSuite } from "../helpers/search-server";

describe("a worker killed after a built-in search", () => {
  let h: Harness;
  const search = searchServerForSuite();
  before(async () => {
    h = await harness();
  });

  it("replays the finished search on the retry instead of searching again", async function () {
    this.timeout(60_000);
    const { key } = await h.newKey();
    const { runId } = await crashMidRun(
      h,
      "agent",
      () =>
        request(h.baseUrl, "POST", "/v1/agent/completions", {
          key,
          headers: { prefer: "respond-async" },
          body: {
            agent_config: { agent_name: "Searcher", tool_call_summary: false, llm_args: { sim_latency_ms: 1_500 } },
            task: `search-crash-${Date.now()}`,
            tools_enabled: ["auto_search"],
          },
        }),
      // Killed once the tool call and the search are stored and the answer is in flight.
      { killAfterSteps: 2, stepsInAll: 3, timeoutMs: 30_000 },
    );
    const steps = await h.deps.ds.query(
      "SELECT model FROM run_steps WHERE run_id = $1 AND status = 'finished' ORDER BY seq",
      [runId],
    );
    const model = config.llm.defaultModel;
    expect(steps.map((s: { model: string }) => s.model)).to.deep.equal([model, "tool:auto_search", model]);
    // One search in all: the retry read it back from Postgres.
    expect(search.requests).to.have.length(1);
  });
});
