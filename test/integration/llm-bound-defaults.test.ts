import { expect } from "chai";
import { config } from "../../shared/config";
import { findRun } from "../../shared/db/runs/run-rows";
import { createRedis } from "../../shared/queues/redis";
import { workerRegistry } from "../../shared/metrics/registry";
import { setLlmMaxInFlight } from "../../workers/agents/llm-slots";
import { createKey } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { agent, callsMentioning, postSwarm } from "../helpers/swarm";

const AGENT_COMPLETIONS = "/v1/agent/completions";

/** A 3-agent ConcurrentWorkflow whose every LLM call takes `latencyMs`. */
function threeAgentSwarm(task: string, latencyMs: number) {
  return {
    swarm_type: "ConcurrentWorkflow",
    agents: ["A", "B", "C"].map((n) => agent(n, { max_tokens: 64, llm_args: { sim_latency_ms: latencyMs } })),
    task,
  };
}

/** The value a worker metric reports now (its collect callback runs); `sample` picks a histogram's `_count` or `_sum`. */
async function metricValue(name: string, sample = name): Promise<number> {
  const metric = workerRegistry.getSingleMetric(name);
  const { values } = await metric!.get();
  return values.find((v) => ((v as { metricName?: string }).metricName ?? name) === sample)?.value ?? Number.NaN;
}

/**
 * Runs are LLM-bound: with the defaults (the harness sets no concurrency), one swarm worker holds
 * hundreds of them at once, the process's `LLM_MAX_IN_FLIGHT` bounds its outbound calls, and a
 * call waiting for a slot still ends when its run is cancelled.
 */
describe("LLM-bound defaults: a worker holds hundreds of runs, LLM calls are capped per process", function () {
  this.timeout(120_000);
  let h: Harness;
  let key: string;
  before(async () => {
    h = await harness();
    // Premium: 300 requests at once are beyond a free key's 100 a minute.
    ({ key } = await createKey(h.deps.ds, { tier: "premium" }));
  });
  afterEach(() => setLlmMaxInFlight(config.llm.maxInFlight));

  it("finishes 300 simultaneous 3-agent swarms at 1 s per call together, not in waves of 20, with at most LLM_MAX_IN_FLIGHT calls open", async () => {
    expect(config.queue.concurrency.swarm, "the default the test runs with").to.be.at.least(300);
    const latencyMs = 1_000;
    const swarms = 300;
    const marker = `held-${Date.now()}`;
    h.sim.resetPeak();
    // How many swarm jobs the worker holds at once, and Redis connections, read while the burst runs.
    const redis = createRedis("blocking");
    // This run's Redis database only: other runs on the machine share the server.
    const db = ` db=${new URL(config.redisUrl).pathname.slice(1) || "0"} `;
    const connections = async () =>
      String(await redis.client("LIST"))
        .split("\n")
        .filter((line) => line.includes(db)).length;
    const connectionsBefore = await connections();
    let [activePeak, connectionsPeak] = [0, 0];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        activePeak = Math.max(activePeak, await h.deps.queues.shards[0].swarm.getActiveCount());
        connectionsPeak = Math.max(connectionsPeak, await connections());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const started = Date.now();
    const finishedAt: number[] = [];
    const answers = await Promise.all(
      Array.from({ length: swarms }, (_, i) =>
        postSwarm(h, key, threeAgentSwarm(`${marker}-${i}`, latencyMs)).then((res) => {
          finishedAt.push(Date.now());
          return res;
        }),
      ),
    );
    const wallMs = Date.now() - started;
    watching = false;
    await watch;
    redis.disconnect();
    // Hundreds of jobs held share the worker's connections: none is opened per job or per request.
    expect(connectionsPeak - connectionsBefore, "Redis connections opened during the burst").to.be.at.most(2);
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(200);
    // Every agent of every swarm made its call. (The tests' 2 s job lock can run out for a few jobs
    // while this one process is busy with the whole burst; such a job is delivered again and may
    // send its unfinished call a second time, so distinct calls are counted.)
    const calls = callsMentioning(h, marker).map((c) => JSON.stringify(c.messages));
    expect(new Set(calls).size).to.equal(swarms * 3);
    const { peak } = h.sim.concurrency();
    // The worker held (nearly) every swarm at once, and their calls were open together up to the
    // cap: at the old default of 20 swarm jobs, at most 60 calls were open and 20 jobs active.
    expect(peak, "calls open at once").to.be.at.most(config.llm.maxInFlight);
    expect(peak, "calls open at once").to.be.above(2 * 20 * 3);
    expect(activePeak, "swarm jobs held at once").to.be.above(200);
    // Wall time against the latency: ideally one round of calls (900, under the default cap);
    // waves of 20 swarms needed 15. The rest is CPU (about 5 s of it for the whole burst in this
    // one test process: web, worker, simulator and client), which a shared 2-core machine spreads.
    const spreadMs = Math.max(...finishedAt) - Math.min(...finishedAt);
    expect(spreadMs, "last answer after the first").to.be.below(8 * latencyMs);
    expect(wallMs, "all 300 swarms").to.be.below(0.75 * (swarms / 20) * latencyMs);
  });

  it("never has more calls open than a low cap, across every job of the process", async () => {
    setLlmMaxInFlight(5);
    const latencyMs = 300;
    const marker = `capped-${Date.now()}`;
    h.sim.resetPeak();
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => postSwarm(h, key, threeAgentSwarm(`${marker}-${i}`, latencyMs))),
    );
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(callsMentioning(h, marker)).to.have.length(12);
    expect(h.sim.concurrency().peak).to.equal(5);
    // 12 calls, 5 at a time: three rounds.
    expect(Date.now() - started).to.be.at.least(3 * latencyMs * 0.95);
  });

  it("lets a cancelled run's call leave the line for a slot at once, never sending it", async () => {
    setLlmMaxInFlight(1);
    const slotWait = "apiary_llm_slot_wait_seconds";
    const [waitsBefore, waitedBefore] = [
      await metricValue(slotWait, `${slotWait}_count`),
      await metricValue(slotWait, `${slotWait}_sum`),
    ];
    const holder = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      headers: { prefer: "respond-async" },
      body: {
        agent_config: { agent_name: "Holder", llm_args: { sim_latency_ms: 30_000 } },
        task: `hold-${Date.now()}`,
      },
    });
    const holderId = holder.body.job_id as string;
    await eventually(async () => (h.sim.concurrency().now === 1 ? true : undefined));
    const marker = `waits-${Date.now()}`;
    const waiter = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      headers: { prefer: "respond-async" },
      body: { agent_config: { agent_name: "Waiter", llm_args: { sim_latency_ms: 50 } }, task: marker },
    });
    const waiterId = waiter.body.job_id as string;
    await eventually(async () => ((await metricValue("apiary_llm_calls_waiting")) === 1 ? true : undefined));
    expect(await metricValue("apiary_llm_calls_in_flight")).to.equal(1);

    const sentAt = Date.now();
    expect((await request(h.baseUrl, "DELETE", `/v1/jobs/${waiterId}`, { key })).status).to.equal(200);
    const job = await h.deps.queues.shards[0].agent.getJob(waiterId);
    await eventually(async () => ((await job!.getState()) === "completed" ? true : undefined), 5_000, 20);
    expect(Date.now() - sentAt).to.be.below(1_500);
    expect((await findRun(h.deps.ds, waiterId))?.status).to.equal("cancelled");
    expect(await metricValue("apiary_llm_calls_waiting")).to.equal(0);
    expect(callsMentioning(h, marker), "the waiting call was never sent").to.have.length(0);
    // Both calls' waits were recorded: the holder's (none) and the cancelled one's (until its cancel).
    expect(await metricValue(slotWait, `${slotWait}_count`)).to.equal(waitsBefore + 2);
    expect((await metricValue(slotWait, `${slotWait}_sum`)) - waitedBefore).to.be.above(0);

    await request(h.baseUrl, "DELETE", `/v1/jobs/${holderId}`, { key });
    await eventually(async () => ((await findRun(h.deps.ds, holderId))?.status === "cancelled" ? true : undefined));
  });
});
