import { expect } from "chai";
import { isTerminal, findRun } from "../../shared/db/runs/run-rows";
import { workerRegistry } from "../../shared/metrics/registry";
import { pagesBrowser } from "../helpers/browser";
import { crashMidRun } from "../helpers/crash-mid-run";
import { createKey } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { dataUrl, PNG_1PX } from "../helpers/images";
import { callInFlight, expectPoolMatchesLedger } from "../helpers/ledger";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";
import { sessionUser } from "../helpers/platform-fixtures";
import { parseSse } from "../helpers/sse";
import { agent, postSwarm, uniqueMarker } from "../helpers/swarm";

const AGENT_COMPLETIONS = "/v1/agent/completions";

/** What the worker metrics say was billed, net of credits (refunds, discounts), in this process. */
async function prometheusNet(): Promise<number> {
  const metrics = await workerRegistry.getMetricsAsJSON();
  const sum = (name: string) =>
    (metrics.find((m) => m.name === name)?.values ?? []).reduce((total, v) => total + Number(v.value), 0);
  return sum("apiary_billed_usd_total") - sum("apiary_credited_usd_total");
}

/**
 * This process's Prometheus counters and the whole ledger (every account's: the counters are the
 * process's, not an account's), read together while no write lands between them.
 */
async function countersAndLedger(h: Harness): Promise<{ prometheus: number; ledger: number }> {
  for (;;) {
    const before = await prometheusNet();
    const [row] = await h.deps.ds.query(
      `SELECT (SELECT coalesce(sum(cost), 0) FROM run_steps)::float8 + (SELECT coalesce(sum(amount), 0) FROM run_charges)::float8 AS ledger`,
    );
    if ((await prometheusNet()) === before) return { prometheus: before, ledger: Number(row.ledger) };
  }
}

/** A run's bill, as its answer or job read gives it (agent usage or swarm billing info). */
function billOf(usage: any): number {
  return Number(usage?.total_cost ?? usage?.billing_info?.total_cost ?? 0);
}

/**
 * One ledger: after a mix of agents, swarms, a batch, images, an MCP call, a flex discount, a
 * failure, a cancel, a cut-off stream and a worker killed mid-call, every figure that reports
 * money for the account reads the same charges: the runs' bills, `GET /v1/usage`,
 * `/v1/usage/report`, `/v1/metrics/summary`, the keys page, the account's daily ceiling in Redis
 * and the workers' Prometheus counters agree to the cent (here, to a millionth).
 */
describe("one ledger: every figure of an account's spend agrees", function () {
  this.timeout(180_000);
  let h: Harness;
  let mcp: McpTestServer;
  const { newPage } = pagesBrowser(() => h.platformUrl);
  before(async () => {
    h = await harness();
    mcp = await startMcpTestServer();
  });
  after(async () => mcp?.close());

  it("the bills, usage, the report, the summary, the keys page, the daily ceiling and Prometheus", async () => {
    const user = await sessionUser(h.deps.ds, "ledger");
    const { key } = await createKey(h.deps.ds, { userId: user.id, name: "ledger" });
    const runIds: string[] = [];
    const start = await countersAndLedger(h);

    // A worker killed while its call is with the provider: the child process's share of the ledger
    // died with its metrics, so it is read off the ledger at the kill.
    let storedByChild = 0;
    const crashed = await crashMidRun(
      h,
      "agent",
      () =>
        request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
          key,
          headers: { prefer: "respond-async" },
          body: {
            agent_config: { agent_name: "Crashed", max_loops: 2, llm_args: { sim_latency_ms: 1_500 } },
            task: uniqueMarker("crash"),
            img: dataUrl(PNG_1PX),
          },
        }),
      {
        killAfterSteps: 1,
        killWhen: callInFlight(h),
        atKill: async (_agents, runId) => {
          const [row] = await h.deps.ds.query(`SELECT ledger_cost FROM usage_ledger WHERE run_id = $1`, [runId]);
          storedByChild = Number(row.ledger_cost);
        },
      },
    );
    runIds.push(crashed.runId);

    // Runs that succeed: an agent, one with an image, one with an MCP call, a flex swarm, a batch.
    const answers = await Promise.all([
      request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
        key,
        body: { agent_config: { agent_name: "Plain" }, task: uniqueMarker("a") },
      }),
      request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
        key,
        body: { agent_config: { agent_name: "Seer" }, task: uniqueMarker("img"), img: dataUrl(PNG_1PX) },
      }),
      request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
        key,
        body: {
          agent_config: { agent_name: "Tooled", mcp_config: { url: mcp.url, timeout: 5 } },
          task: uniqueMarker("mcp"),
          tools_enabled: ["echo"],
        },
      }),
      postSwarm(h, key, {
        swarm_type: "ConcurrentWorkflow",
        service_tier: "flex",
        agents: [agent("One"), agent("Two"), agent("Three")],
        task: uniqueMarker("flex"),
      }),
      request(h.baseUrl, "POST", "/v1/agent/batch/completions", {
        key,
        body: [
          { agent_config: { agent_name: "B1" }, task: uniqueMarker("b1") },
          { agent_config: { agent_name: "B2" }, task: uniqueMarker("b2") },
        ],
      }),
    ]);
    for (const res of answers.slice(0, 4)) {
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      runIds.push(res.body.job_id);
    }
    const batch = answers[4];
    expect(batch.status, JSON.stringify(batch.body)).to.equal(200);
    for (const item of batch.body.results) runIds.push(item.job_id);
    expect(answers[3].body.usage.billing_info.discount_active, "the flex discount is on the bill").to.equal(true);

    // A swarm whose third agent fails, a cancelled run, and a stream cut off by its time limit.
    const failed = await postSwarm(h, key, {
      swarm_type: "SequentialWorkflow",
      agents: [agent("First"), agent("Second"), agent("Third", { llm_args: { sim_error: 400 } })],
      task: uniqueMarker("fail"),
    });
    expect(failed.status).to.equal(500);
    runIds.push(failed.body.job_id);

    const cancelled = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      headers: { prefer: "respond-async" },
      body: {
        agent_config: { agent_name: "Cancelled", llm_args: { sim_latency_ms: 30_000 } },
        task: uniqueMarker("c"),
      },
    });
    runIds.push(cancelled.body.job_id);
    const inFlight = callInFlight(h);
    await eventually(async () => ((await inFlight(cancelled.body.job_id)) ? true : undefined));
    expect((await request(h.baseUrl, "DELETE", `/v1/jobs/${cancelled.body.job_id}`, { key })).status).to.equal(200);

    const stream = await fetch(`${h.baseUrl}${AGENT_COMPLETIONS}`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        agent_config: {
          agent_name: "Cut",
          streaming_on: true,
          llm_args: { sim_reply: "many words ".repeat(120), sim_latency_ms: 3_000 },
        },
        task: uniqueMarker("cut"),
        budget: { timeout_seconds: 2 },
      }),
    });
    const frames = parseSse(await stream.text());
    expect(frames.filter((f) => f.event === "chunk").length).to.be.greaterThan(0);
    runIds.push(frames[0].data.job_id);

    // Every run has ended and its worker has written what it spent; no call holds a reservation.
    const bills = await eventually(async () => {
      const read = [];
      for (const id of runIds) {
        const run = await findRun(h.deps.ds, id);
        if (!run || !isTerminal(run.status) || !run.usage) return undefined;
        read.push({
          id,
          bill: billOf(run.usage),
          tokens: (run.usage as any).input_tokens + (run.usage as any).output_tokens,
        });
      }
      return read;
    }, 60_000);
    const pool = await expectPoolMatchesLedger(h, user.id);
    const billed = bills.reduce((sum, b) => sum + b.bill, 0);
    const tokens = bills.reduce((sum, b) => sum + b.tokens, 0);
    expect(billed).to.be.greaterThan(0);

    const usage = await request(h.baseUrl, "GET", "/v1/usage?days=1", { key });
    const report = await request(h.baseUrl, "GET", "/v1/usage/report?period=day", { key });
    const summary = await request(h.baseUrl, "GET", "/v1/metrics/summary", { key });
    const page = await newPage({ sessionToken: user.token });
    expect((await page.goto("/platform/api-keys"))!.status()).to.equal(200);
    const pageTotal = Number(
      (await page.locator('[data-field="usage-total"]').innerText()).match(/\$([\d,.]+)/)![1].replace(/,/g, ""),
    );
    // The workers' counters against the ledger they stored (the killed worker's share aside), over
    // every account: other suites' runs may still be finishing in this process.
    const end = await countersAndLedger(h);
    expect(end.prometheus - start.prometheus, "Prometheus against the ledger its workers stored").to.be.closeTo(
      end.ledger - start.ledger - storedByChild,
      1e-6,
    );

    const figures = {
      "GET /v1/usage": usage.body.totals.cost,
      "GET /v1/usage/report": report.body.totals.total_cost,
      "GET /v1/metrics/summary": summary.body.total_cost,
      "the keys page": pageTotal,
      "the daily ceiling's pool": pool.cost,
    };
    for (const [where, figure] of Object.entries(figures))
      expect(figure, `${where} against the runs' bills`).to.be.closeTo(billed, 1e-5);
    expect(usage.body.totals.total_tokens, "tokens too").to.equal(tokens);
    expect(report.body.totals.total_tokens).to.equal(tokens);
    expect(summary.body.total_tokens).to.equal(tokens);
    expect(pool.tokens).to.equal(tokens);
  });
});
