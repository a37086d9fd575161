import { expect } from "chai";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { runLedger } from "../helpers/ledger";
import { agent, postSwarm, uniqueMarker } from "../helpers/swarm";

/**
 * `budget.on_exceeded: "wind_down"`: at its ceiling the run stops starting work and answers 200
 * with what finished (`status: incomplete`), instead of failing; billed what it spent.
 */
describe("a budget that winds a run down instead of failing it", function () {
  this.timeout(30_000);
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("an agent answers with its last finished loop, success false, status incomplete, and why", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: { agent_name: "Looper", max_loops: 4, llm_args: { sim_latency_ms: 700 } },
        task: uniqueMarker("wind-agent"),
        budget: { timeout_seconds: 2, on_exceeded: "wind_down" },
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ success: false, status: "incomplete", name: "Looper" });
    expect(res.body.incomplete_details).to.include({ reason: "budget_exceeded", limit: "time" });
    const ledger = await runLedger(h, res.body.job_id);
    const finished = ledger.steps.filter((s) => s.status === "finished");
    expect(finished.length, "some loops finished, not all").to.be.within(1, 3);
    expect(res.body.outputs).to.deep.equal([{ role: "Looper", content: finished.at(-1)!.output.content }]);
    expect(res.body.agents).to.deep.equal([
      {
        agent: "Looper",
        status: "failed",
        output: finished.at(-1)!.output.content,
        error: "Stopped before it finished: The run reached its time limit",
      },
    ]);
    expect(res.body.usage.total_cost).to.be.closeTo(ledger.ledger, 1e-6);
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
    expect(job.body).to.include({ status: "incomplete", success: false });
    expect(job.body.outputs).to.deep.equal(res.body.outputs);
  });

  it("a swarm answers with the agents that finished, status incomplete; the one cut off is named", async () => {
    const res = await postSwarm(h, key, {
      swarm_type: "SequentialWorkflow",
      agents: [agent("First"), agent("Second"), agent("Slow", { llm_args: { sim_latency_ms: 10_000 } })],
      task: uniqueMarker("wind-swarm"),
      budget: { timeout_seconds: 2, on_exceeded: "wind_down" },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.status).to.equal("incomplete");
    expect(res.body.incomplete_details.limit).to.equal("time");
    expect(res.body.output.map((o: { role: string }) => o.role)).to.deep.equal(["First", "Second"]);
    expect(res.body.agents.map((a: { agent: string; status: string }) => [a.agent, a.status])).to.deep.equal([
      ["First", "succeeded"],
      ["Second", "succeeded"],
      ["Slow", "failed"],
    ]);
    const ledger = await runLedger(h, res.body.job_id);
    expect(ledger.steps.map((s) => s.status)).to.deep.equal(["finished", "finished", "cut_off"]);
    expect(res.body.usage.billing_info.total_cost).to.be.closeTo(ledger.ledger, 1e-6);
  });

  it("without wind_down the same run fails, still naming what finished", async () => {
    const res = await postSwarm(h, key, {
      swarm_type: "SequentialWorkflow",
      agents: [agent("First"), agent("Slow", { llm_args: { sim_latency_ms: 10_000 } })],
      task: uniqueMarker("no-wind"),
      budget: { timeout_seconds: 2 },
    });
    expect(res.status).to.equal(500);
    expect(res.body.code).to.equal("BUDGET_EXCEEDED");
    expect(res.body.agents.map((a: { status: string }) => a.status)).to.deep.equal(["succeeded", "failed"]);
  });

  it("refuses an unknown on_exceeded with a 422", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "A" }, task: "x", budget: { on_exceeded: "shrug" } },
    });
    expect(res.status).to.equal(422);
    expect(JSON.stringify(res.body.detail)).to.include("on_exceeded");
  });
});
