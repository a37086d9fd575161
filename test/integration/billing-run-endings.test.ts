import { expect } from "chai";
import { randomBytes } from "node:crypto";
import type { AgentRun, Run } from "../../shared/db/entities/run.entity";
import { cancelRun } from "../../shared/db/runs/run-results";
import { findRun, isTerminal } from "../../shared/db/runs/run-rows";
import { logger } from "../../shared/logger";
import { CancelListener } from "../../shared/queues/cancellation";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { agentUsage } from "../../workers/agents/agent-usage";
import { runAgent } from "../../workers/agents/agent-runner";
import type { HandlerContext } from "../../workers/handlers/handler";
import { executeRun } from "../../workers/handlers/run-lifecycle";
import { agentRequest, createRun } from "../helpers/factories";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { dataUrl, PNG_1PX } from "../helpers/images";
import { expectPoolMatchesLedger, runLedger } from "../helpers/ledger";
import { agent, callerOf, callsMentioning, postSwarm, uniqueMarker } from "../helpers/swarm";

/** A run that has ended and whose worker wrote what it spent. */
const ended = (h: Harness, runId: string) =>
  eventually(async () => {
    const row = await findRun(h.deps.ds, runId);
    return row && isTerminal(row.status) && row.usage ? row : undefined;
  }, 20_000);

/**
 * How runs end: whatever ends a run (a failed turn, its budget, a cancel, even one that lands as
 * its work finishes) ends the work still going beside it, and the run's bill is its ledger.
 */
describe("a run's ending ends its work, and its bill is its ledger", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("a failed turn stops the parallel turns beside it: no call after the run ended, the bill is the ledger", async () => {
    const marker = uniqueMarker("parallel-fail");
    const res = await postSwarm(h, key, {
      swarm_type: "ConcurrentWorkflow",
      task: marker,
      agents: [
        // Broken fails 300 ms in, so that Busy's call has surely left by then even on a loaded
        // machine (a call that never left is rightly not billed, and there would be no step).
        agent("Broken", { llm_args: { sim_error: 400, sim_latency_ms: 300 } }),
        agent("Busy", { max_loops: 3, llm_args: { sim_latency_ms: 800 } }),
      ],
    });
    expect(res.status).to.equal(500);
    const row = await ended(h, res.body.job_id);
    const ledger = await runLedger(h, row.id);
    expect(ledger.ledger, "the bill is the ledger").to.be.closeTo(ledger.billed!, 1e-6);
    expect(ledger.steps.map((s) => s.status)).to.deep.equal(["cut_off"]);
    // Busy's first call was cut off when the run failed; it never made a second.
    const busyCalls = callsMentioning(h, marker).filter((c: any) => callerOf(c) === "Busy");
    expect(busyCalls).to.have.length(1);
    expect(res.body.usage.billing_info.total_cost).to.equal(ledger.billed);
  });

  it("cancelling a batch stops its items, each billed what it did, with its agents", async () => {
    const marker = uniqueMarker("batch-cancel");
    const res = await request(h.baseUrl, "POST", "/v1/agent/batch/completions", {
      key,
      headers: { prefer: "respond-async" },
      body: [1, 2].map((i) => ({
        agent_config: { agent_name: `Item${i}`, max_loops: 3, llm_args: { sim_latency_ms: 1_000 } },
        task: `${marker}-${i}`,
      })),
    });
    const children = await eventually(async () => {
      const rows: { id: string; status: string }[] = await h.deps.ds.query(
        `SELECT id, status FROM runs WHERE parent_id = $1`,
        [res.body.job_id],
      );
      return rows.length === 2 && rows.every((r) => r.status === "running") ? rows : undefined;
    });
    expect((await request(h.baseUrl, "DELETE", `/v1/jobs/${res.body.job_id}`, { key })).status).to.equal(200);
    const sent = callsMentioning(h, marker).length;
    for (const child of children) {
      const row = (await ended(h, child.id)) as AgentRun;
      expect(row.status).to.equal("cancelled");
      expect(row.agents?.map((a) => a.status)).to.deep.equal(["failed"]);
      const ledger = await runLedger(h, child.id);
      expect(ledger.steps.map((s) => s.status)).to.deep.equal(["cut_off"]);
      expect(ledger.ledger).to.be.closeTo(ledger.billed!, 1e-6);
      const read = await request(h.baseUrl, "GET", `/v1/jobs/${child.id}`, { key });
      expect(read.body).to.include({ status: "cancelled", code: "RUN_CANCELLED" });
    }
    expect(callsMentioning(h, marker).length, "no call after the cancel").to.equal(sent);
  });

  it("a cancel that lands as the run's work finishes stands, and the run is billed what it did", async () => {
    const redis: RedisClient = createRedis("request");
    const cancels = new CancelListener(createRedis("blocking"));
    await cancels.start();
    try {
      const run = (await createRun(h.deps.ds, {
        kind: "agent",
        request: agentRequest({ agent_config: { agent_name: "Racer" }, task: uniqueMarker("race") }),
      })) as AgentRun;
      const ctx: HandlerContext = {
        ds: h.deps.ds,
        logger: logger.child({ test: "race" }),
        cancels,
        redis,
        announce: () => undefined,
      };
      await executeRun<AgentRun>(run.id, ctx, {
        kind: "agent",
        async execute(env) {
          const result = await runAgent(
            env.run.request.agent_config,
            { task: env.run.request.task! },
            {
              ...env,
              recorder: env.recorder.lane("agent"),
              depth: 0,
            },
          );
          // The client's DELETE lands now: its row is written, its broadcast not yet heard.
          await cancelRun(h.deps.ds, run.job_id, run.user_id!);
          return { output: { outputs: [{ role: "Racer", content: result.content }] }, usage: agentUsage(env.usage) };
        },
        usageSoFar: ({ usage }) => agentUsage(usage),
      });
      const row = (await findRun(h.deps.ds, run.id)) as Run;
      expect(row.status).to.equal("cancelled");
      const ledger = await runLedger(h, run.id);
      expect(ledger.steps.map((s) => s.status)).to.deep.equal(["finished"]);
      expect(ledger.billed, "its usage was written").to.not.equal(null);
      expect(ledger.ledger).to.be.closeTo(ledger.billed!, 1e-6);
    } finally {
      await cancels.close();
      redis.disconnect();
    }
  });

  it("a cut-off call's prompt counts an image at its fixed price, not its base64 as text", async () => {
    const { key: own, userId } = await h.newKey();
    const img = dataUrl(Buffer.concat([PNG_1PX, randomBytes(300_000)]));
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: own,
      body: {
        agent_config: { agent_name: "Seer", llm_args: { sim_latency_ms: 5_000 } },
        task: uniqueMarker("image-cut"),
        img,
        budget: { timeout_seconds: 1 },
      },
    });
    expect(res.status).to.equal(500);
    const ledger = await runLedger(h, res.body.job_id);
    expect(ledger.steps[0].status).to.equal("cut_off");
    expect(ledger.steps[0].input_tokens, "a few dozen tokens of text and 85 for the image").to.be.within(85, 400);
    await expectPoolMatchesLedger(h, userId);
  });

  it("a swarm winds down at its cost limit too, not only at its time limit", async () => {
    const res = await postSwarm(h, key, {
      swarm_type: "SequentialWorkflow",
      task: uniqueMarker("wind-cost"),
      agents: [agent("First"), agent("Second"), agent("Third"), agent("Fourth")],
      budget: { max_cost: 0.025, on_exceeded: "wind_down" },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.status).to.equal("incomplete");
    expect(res.body.incomplete_details.limit).to.equal("cost");
    const statuses = res.body.agents.map((a: { status: string }) => a.status);
    expect(statuses[0]).to.equal("succeeded");
    expect(statuses).to.include("skipped");
  });

  it("a handoff agent that ran is listed with what it did, not as skipped", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: {
          agent_name: "Lead",
          max_loops: 3,
          llm_args: {
            sim_latency_ms: 600,
            sim_tool_arguments: { handoff_to_agent: { agent_name: "Writer", task: "Write it" } },
          },
          handoffs: [{ agent_name: "Writer", description: "Writes copy", system_prompt: "You write." }],
        },
        task: uniqueMarker("handoff"),
        budget: { timeout_seconds: 2 },
      },
    });
    expect(res.status).to.equal(500);
    const writer = res.body.agents.find((a: { agent: string }) => a.agent === "Writer");
    expect(writer, JSON.stringify(res.body.agents)).to.not.equal(undefined);
    expect(writer.status).to.not.equal("skipped");
  });
});
