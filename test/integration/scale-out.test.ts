import { expect } from "chai";
import { Queue } from "bullmq";
import { config } from "../../shared/config";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { ProcessDeployment, type WebProcess, type WorkerProcess } from "../helpers/process-deployment";
import { allKeys, keysOutsidePrefixSlot } from "../helpers/redis-slots";
import { parseSse } from "../helpers/sse";

/**
 * Several web and worker processes, started as the Procfile starts them, sharing the test
 * database and Redis database. They use a queue prefix of their own so the in-process workers of
 * the shared test harness never take their jobs; the harness provides the migrated database, API
 * keys and the LLM simulator.
 */
const PREFIX = config.queue.prefix.replace("}", "-scale-out}");

const swarmBody = (task: string) => ({
  name: "Pair",
  swarm_type: "SequentialWorkflow",
  agents: [{ agent_name: "Drafter" }, { agent_name: "Checker" }],
  task,
});
const agentBody = (task: string, latencyMs = 300) => ({
  agent_config: { agent_name: "Scaler", llm_args: { sim_latency_ms: latencyMs } },
  task,
});
const async = { prefer: "respond-async" };

describe("scale-out: two web processes, two agent workers and a swarm worker on one Redis and Postgres", function () {
  this.timeout(180_000);
  let h: Harness;
  let deployment: ProcessDeployment;
  let webA: WebProcess;
  let webB: WebProcess;
  let agentWorkers: WorkerProcess[];
  let swarmWorker: WorkerProcess | undefined;
  let redis: RedisClient;
  let queues: { agent: Queue; swarm: Queue };
  let keysBefore: Set<string>;

  /** The worker name BullMQ recorded on each job (the job id is the run id). */
  const processedBy = (queue: Queue, ids: string[]) =>
    Promise.all(ids.map(async (id) => (await queue.getJob(id))?.processedBy));

  before(async function () {
    this.timeout(300_000);
    h = await harness();
    redis = createRedis("blocking");
    keysBefore = new Set(await allKeys(redis));
    queues = {
      agent: new Queue("agent", { connection: redis, prefix: PREFIX }),
      swarm: new Queue("swarm", { connection: redis, prefix: PREFIX }),
    };
    deployment = new ProcessDeployment({
      ...process.env,
      QUEUE_PREFIX: PREFIX,
      LOG_LEVEL: "warn",
      // Two jobs per agent worker: a burst cannot all land on one process.
      WORKER_CONCURRENCY_AGENT: "2",
    });
    // No swarm worker yet: the first test starts it while swarm jobs wait.
    [webA, webB, ...agentWorkers] = await Promise.all([
      deployment.startWeb("web-a"),
      deployment.startWeb("web-b"),
      deployment.startWorker("worker-agent-1", ["agent"]),
      deployment.startWorker("worker-agent-2", ["agent"]),
    ]);
    expect(agentWorkers[0].name).to.not.equal(agentWorkers[1].name);
  });

  after(async () => {
    await deployment?.stop();
    await Promise.all(Object.values(queues ?? {}).map((q) => q.close()));
    redis?.disconnect();
  });

  const ensureSwarmWorker = async () => (swarmWorker ??= await deployment.startWorker("worker-swarm", ["swarm"]));

  it("a worker process started while jobs wait takes them (late scale-up)", async () => {
    expect(swarmWorker, "this test starts the swarm worker; run it first").to.equal(undefined);
    const { key } = await h.newKey();
    const accepted = await Promise.all(
      [webA, webB, webA].map((web, i) =>
        request(web.url, "POST", "/v1/swarm/completions", { key, headers: async, body: swarmBody(`late-${i}`) }),
      ),
    );
    for (const res of accepted) expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const ids = accepted.map((res) => res.body.job_id as string);
    // Queued for fair dispatch: prioritized, BullMQ's waiting list for jobs with a turn.
    expect(await queues.swarm.getPrioritizedCount()).to.equal(3);
    for (const id of ids)
      expect((await request(webB.url, "GET", `/v1/jobs/${id}`, { key })).body.status).to.equal("queued");

    const worker = await ensureSwarmWorker();
    const jobs = await eventually(
      async () => {
        const found = await Promise.all(ids.map((id) => request(webB.url, "GET", `/v1/jobs/${id}`, { key })));
        return found.every((res) => res.body.status === "success") ? found : undefined;
      },
      60_000,
      200,
    );
    for (const job of jobs) expect(job.body).to.include({ status: "success", swarm_type: "SequentialWorkflow" });
    expect(await processedBy(queues.swarm, ids)).to.deep.equal([worker.name, worker.name, worker.name]);
  });

  it("answers a burst of agent and swarm completions sent alternately to both web processes, the runs spread over both agent workers", async () => {
    const worker = await ensureSwarmWorker();
    const { key } = await h.newKey();
    const sends = Array.from({ length: 16 }, (_, i) => {
      const web = i % 2 === 0 ? webA : webB;
      const isSwarm = i % 4 === 3;
      const path = isSwarm ? "/v1/swarm/completions" : "/v1/agent/completions";
      return {
        isSwarm,
        pending: request(web.url, "POST", path, {
          key,
          body: isSwarm ? swarmBody(`burst-${i}`) : agentBody(`burst-${i}`),
        }),
      };
    });
    const answers = await Promise.all(sends.map((s) => s.pending));
    answers.forEach((res, i) => {
      expect(res.status, `request ${i}: ${JSON.stringify(res.body)}`).to.equal(200);
      if (sends[i].isSwarm) expect(res.body.status).to.equal("success");
      else expect(res.body.success).to.equal(true);
    });

    const agentIds = answers.filter((_, i) => !sends[i].isSwarm).map((res) => res.body.job_id as string);
    const swarmIds = answers.filter((_, i) => sends[i].isSwarm).map((res) => res.body.job_id as string);
    const agentRunners = await processedBy(queues.agent, agentIds);
    expect(agentRunners).to.have.length(12);
    expect(new Set(agentRunners)).to.deep.equal(new Set(agentWorkers.map((w) => w.name)));
    expect(await processedBy(queues.swarm, swarmIds)).to.deep.equal(swarmIds.map(() => worker.name));
  });

  it("lets web B report a job enqueued through web A", async () => {
    const { key } = await h.newKey();
    const accepted = await request(webA.url, "POST", "/v1/agent/completions", {
      key,
      headers: async,
      body: agentBody("relay", 500),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    const id = accepted.body.job_id;
    const done = await eventually(
      async () => {
        const res = await request(webB.url, "GET", `/v1/jobs/${id}`, { key });
        expect(res.status).to.equal(200);
        return res.body.status === "success" ? res : undefined;
      },
      30_000,
      100,
    );
    expect(done.body).to.include({ job_id: id, name: "Scaler", success: true });
    expect(done.body.outputs[0].content).to.be.a("string").and.not.equal("");
    expect((await request(webA.url, "GET", `/v1/jobs/${id}`, { key })).body).to.deep.equal(done.body);
  });

  it("refuses a revoked key on every web process at once, though each had just cached it", async () => {
    const { key, keyId } = await h.newKey();
    // Both processes now hold the key in their 30-second cache of valid keys.
    for (const web of [webA, webB])
      expect((await request(web.url, "GET", "/v1/rate/limits", { key })).status).to.equal(200);
    const said = await deployment.run("apikey-revoke", "scripts/apikey.ts", ["revoke", keyId]);
    expect(said).to.include(`Revoked key ${keyId}`);
    for (const web of [webA, webB]) {
      const res = await request(web.url, "GET", "/v1/rate/limits", { key });
      expect(res.status, `${web.url}: ${JSON.stringify(res.body)}`).to.equal(401);
    }
  });

  it("keeps every Redis key it writes in the queue prefix's hash slot (Redis Cluster safe)", async () => {
    // A batch (parent and child jobs) and a stream (run events) add their own key kinds.
    const { key } = await h.newKey();
    const batch = await request(webB.url, "POST", "/v1/agent/batch/completions", {
      key,
      body: [agentBody("slot-1", 10), agentBody("slot-2", 10)],
    });
    expect(batch.status, JSON.stringify(batch.body)).to.equal(200);
    const streamed = await request(webA.url, "POST", "/v1/agent/completions", {
      key,
      body: { ...agentBody("slot-stream", 10), stream: true },
    });
    expect(parseSse(streamed.body).map((f) => f.event)).to.include("done");

    const keys = await allKeys(redis);
    const ours = keys.filter((k) => k.startsWith(PREFIX));
    // The check must see every kind of key: queue structures, job hashes, a batch parent's record
    // of its children, rate-limit counters (a key's and its account's), spend counters (an
    // account's day, a batch's shared budget) and run-event streams.
    const ID = "[0-9a-f-]{36}";
    const kinds = [
      `:agent:${ID}$`,
      `:agent:${ID}:processed$`,
      ":agent:events$",
      ":agent:meta$",
      ":agent:completed$",
      ":swarm:completed$",
      `:rl:key:minute:${ID}$`,
      `:rl:account:minute:${ID}$`,
      `:spend:account:${ID}:\\d{4}-\\d{2}-\\d{2}$`,
      `:spend:request:${ID}$`,
      `:run-events:${ID}$`,
    ];
    for (const kind of kinds)
      expect(
        ours.some((k) => new RegExp(kind).test(k)),
        `no ${kind} key among ${ours.length}`,
      ).to.equal(true);
    expect(keysOutsidePrefixSlot(keys, PREFIX)).to.deep.equal([]);
    // Nothing new outside a hash-tagged prefix: the deployment's, or the shared harness's (idle here).
    const stray = keys.filter((k) => !keysBefore.has(k) && !k.startsWith(PREFIX) && !k.startsWith(config.queue.prefix));
    expect(stray).to.deep.equal([]);
    expect(keysOutsidePrefixSlot(keys, config.queue.prefix)).to.deep.equal([]);
  });
});
