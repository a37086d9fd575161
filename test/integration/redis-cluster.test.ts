import { expect } from "chai";
import { Queue } from "bullmq";
import { Cluster } from "ioredis";
import { config } from "../../shared/config";
import { createRedis } from "../../shared/queues/redis";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { ProcessDeployment, type WebProcess } from "../helpers/process-deployment";
import { startLocalRedisCluster, type LocalRedisCluster } from "../helpers/redis-cluster";
import { allKeys, slotOf } from "../helpers/redis-slots";
import { parseSse } from "../helpers/sse";

const PREFIX = config.queue.prefix.replace("}", "-cluster}");
const agentBody = (task: string) => ({
  agent_config: { agent_name: "Clustered", llm_args: { sim_latency_ms: 20 } },
  task,
});

/**
 * A real three-master Redis Cluster on local ports, with a web and a worker process connected to
 * it through `REDIS_CLUSTER_NODES` (Postgres and the LLM simulator are the harness's).
 */
describe("Redis Cluster: a web and a worker process on a three-master cluster", function () {
  this.timeout(180_000);
  let h: Harness;
  let cluster: LocalRedisCluster;
  let deployment: ProcessDeployment;
  let web: WebProcess;

  before(async function () {
    this.timeout(300_000);
    h = await harness();
    cluster = await startLocalRedisCluster(3);
    deployment = new ProcessDeployment({
      ...process.env,
      REDIS_CLUSTER_NODES: cluster.urls.join(","),
      QUEUE_PREFIX: PREFIX,
      LOG_LEVEL: "warn",
    });
    [web] = await Promise.all([
      deployment.startWeb("cluster-web"),
      deployment.startWorker("cluster-worker", ["agent", "swarm"]),
    ]);
  });

  after(async () => {
    await deployment?.stop();
    await cluster?.stop();
  });

  it("runs an agent completion, a swarm completion, an agent batch and a streamed agent completion, counts rate limits and hears a key revocation", async () => {
    const { key, keyId } = await h.newKey();
    const agentRun = await request(web.url, "POST", "/v1/agent/completions", { key, body: agentBody("cluster-agent") });
    expect(agentRun.status, JSON.stringify(agentRun.body)).to.equal(200);
    expect(agentRun.body).to.include({ success: true, name: "Clustered" });

    const swarmRun = await request(web.url, "POST", "/v1/swarm/completions", {
      key,
      body: {
        name: "Pair",
        swarm_type: "SequentialWorkflow",
        agents: [{ agent_name: "A" }, { agent_name: "B" }],
        task: "cluster-swarm",
      },
    });
    expect(swarmRun.status, JSON.stringify(swarmRun.body)).to.equal(200);
    expect(swarmRun.body.status).to.equal("success");
    expect(swarmRun.body.output.map((t: { role: string }) => t.role)).to.deep.equal(["A", "B"]);

    const agentBatch = await request(web.url, "POST", "/v1/agent/batch/completions", {
      key,
      body: [agentBody("cluster-1"), agentBody("cluster-2")],
    });
    expect(agentBatch.status, JSON.stringify(agentBatch.body)).to.equal(200);
    expect(agentBatch.body.results).to.have.length(2);

    const streamed = await request(web.url, "POST", "/v1/agent/completions", {
      key,
      body: { ...agentBody("cluster-stream"), stream: true },
    });
    expect(parseSse(streamed.body).map((f) => f.event)).to.include.members(["start", "chunk", "usage", "end", "done"]);

    const job = await request(web.url, "GET", `/v1/jobs/${agentRun.body.job_id}`, { key });
    expect(job.body).to.include({ job_id: agentRun.body.job_id, status: "success" });
    // Three completions, a batch of two items (counting two) and this job read: six counted in the cluster.
    expect(job.headers.get("x-ratelimit-remaining-minute")).to.equal(
      String(config.rateLimits.tiers.free.perMinute - 6),
    );

    await deployment.run("cluster-apikey-revoke", "scripts/apikey.ts", ["revoke", keyId]);
    expect((await request(web.url, "GET", "/v1/rate/limits", { key })).status).to.equal(401);
  });

  it("keeps every key on the one master that owns the prefix's slot, and none on the single-node Redis", async () => {
    const perNode = await Promise.all(cluster.nodeClients().map((client) => allKeys(client)));
    const keys = perNode.flat();
    expect(keys.length).to.be.greaterThan(10);
    expect(perNode.filter((nodeKeys) => nodeKeys.length > 0)).to.have.length(1);
    const slot = slotOf(`${PREFIX}:`);
    expect(keys.filter((k) => slotOf(k) !== slot)).to.deep.equal([]);
    for (const kind of [
      ":agent:completed",
      ":swarm:completed",
      ":rl:key:minute:",
      ":rl:account:minute:",
      ":spend:account:",
      ":spend:request:",
      ":run-events:",
    ]) {
      expect(
        keys.some((k) => k.includes(kind)),
        `no ${kind} key`,
      ).to.equal(true);
    }

    const single = createRedis("blocking", config.redisUrl);
    try {
      expect((await allKeys(single)).filter((k) => k.startsWith(PREFIX))).to.deep.equal([]);
    } finally {
      single.disconnect();
    }
  });

  it("refuses queue work under a prefix without a hash tag (why QUEUE_PREFIX must carry one)", async () => {
    const client = new Cluster(
      cluster.urls.map((url) => ({ host: "127.0.0.1", port: Number(new URL(url).port) })),
      {
        redisOptions: { maxRetriesPerRequest: null },
      },
    );
    const untagged = new Queue("agent", { connection: client, prefix: "apiary-untagged" });
    try {
      let error: unknown;
      await untagged.add("agent-run", { runId: "x" }).catch((err: unknown) => (error = err));
      expect(String(error)).to.match(/CROSSSLOT/);
    } finally {
      await untagged.close();
      client.disconnect();
    }
  });
});
