import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { Queue } from "bullmq";
import { Cluster } from "ioredis";
import { OpenRequests } from "../../api/limits/open-requests";
import { createRateLimiter } from "../../api/limits/rate-limiter";
import { config } from "../../shared/config";
import { findRun } from "../../shared/db/runs/run-rows";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { shardOf, shardPrefixes } from "../../shared/queues/shards";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { ProcessDeployment, type WebProcess } from "../helpers/process-deployment";
import { startLocalRedisCluster, type LocalRedisCluster } from "../helpers/redis-cluster";
import { allKeys, slotOf } from "../helpers/redis-slots";
import { parseSse } from "../helpers/sse";

const PREFIX = config.queue.prefix.replace("}", "-cluster}");
/** As many shards as masters: the shards' tags are chosen so that each master holds one. */
const SHARDS = 3;
const PREFIXES = shardPrefixes(SHARDS, PREFIX);
const ADMIN_PASSWORD = `board-${randomUUID()}`;
const agentBody = (task: string, latencyMs = 20) => ({
  agent_config: { agent_name: "Clustered", llm_args: { sim_latency_ms: latencyMs } },
  task,
});
type Account = Awaited<ReturnType<Harness["newKey"]>>;

/**
 * A real three-master Redis Cluster on local ports, with a web and a worker process connected to
 * it through `REDIS_CLUSTER_NODES` and the keyspace cut into three account shards (`QUEUE_SHARDS`);
 * Postgres and the LLM simulator are the harness's.
 */
describe("Redis Cluster: accounts over three shards, one on each master of a three-master cluster", function () {
  this.timeout(180_000);
  let h: Harness;
  let cluster: LocalRedisCluster;
  let deployment: ProcessDeployment;
  let web: WebProcess;
  /** One account in each shard, by shard. */
  const accounts: Account[] = [];
  /** The job of each account's first agent completion, by shard. */
  const agentJobs: string[] = [];
  const board = (path: string) =>
    request(web.url, "GET", `/admin/queues/api${path}`, {
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}` },
    });

  before(async function () {
    this.timeout(300_000);
    h = await harness();
    cluster = await startLocalRedisCluster(3);
    deployment = new ProcessDeployment({
      ...process.env,
      REDIS_CLUSTER_NODES: cluster.urls.join(","),
      QUEUE_PREFIX: PREFIX,
      QUEUE_SHARDS: String(SHARDS),
      ADMIN_PASSWORD,
      LOG_LEVEL: "warn",
    });
    [web] = await Promise.all([
      deployment.startWeb("cluster-web"),
      deployment.startWorker("cluster-worker", ["agent", "swarm"]),
    ]);
    while (accounts.filter(Boolean).length < SHARDS) {
      const account = await h.newKey();
      accounts[shardOf(account.userId, SHARDS)] ??= account;
    }
  });

  after(async () => {
    await deployment?.stop();
    await cluster?.stop();
  });

  it("runs every shard's accounts: agent completions, and on a shard of its own a swarm completion, an agent batch, a streamed agent completion, rate limits and a key revocation", async () => {
    const agentRuns = await Promise.all(
      accounts.map((account, shard) =>
        request(web.url, "POST", "/v1/agent/completions", {
          key: account.key,
          body: agentBody(`cluster-agent-${shard}`),
        }),
      ),
    );
    for (const agentRun of agentRuns) {
      expect(agentRun.status, JSON.stringify(agentRun.body)).to.equal(200);
      expect(agentRun.body).to.include({ success: true, name: "Clustered" });
      agentJobs.push(agentRun.body.job_id);
    }

    // Shard 1's account: not shard 0, whose keys are QUEUE_PREFIX's own.
    const { key, keyId } = accounts[1];
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
    const frames = parseSse(streamed.body);
    expect(frames.map((f) => f.event)).to.include.members(["start", "chunk", "usage", "end", "done"]);
    expect(frames.filter((f) => f.event === "chunk")).to.not.have.length(0);

    const job = await request(web.url, "GET", `/v1/jobs/${agentRuns[1].body.job_id}`, { key });
    expect(job.body).to.include({ job_id: agentRuns[1].body.job_id, status: "success" });
    // Three completions, a batch of two items (counting two) and this job read: six counted in shard 1.
    expect(job.headers.get("x-ratelimit-remaining-minute")).to.equal(
      String(config.rateLimits.tiers.free.perMinute - 6),
    );
    // Another shard's account counted only its own: its agent completion and this read.
    const other = await request(web.url, "GET", `/v1/jobs/${agentRuns[2].body.job_id}`, { key: accounts[2].key });
    expect(other.headers.get("x-ratelimit-remaining-minute")).to.equal(
      String(config.rateLimits.tiers.free.perMinute - 2),
    );

    await deployment.run("cluster-apikey-revoke", "scripts/apikey.ts", ["revoke", keyId]);
    expect((await request(web.url, "GET", "/v1/rate/limits", { key })).status).to.equal(401);
  });

  it("cancels a running run of an account on another shard, and its worker lets go of it", async () => {
    const { key } = accounts[2];
    const accepted = await request(web.url, "POST", "/v1/agent/completions", {
      key,
      headers: { prefer: "respond-async" },
      body: agentBody(`cluster-cancel-${randomUUID()}`, 60_000),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
    const jobId: string = accepted.body.job_id;
    await eventually(async () => ((await findRun(h.deps.ds, jobId))?.status === "running" ? true : undefined), 30_000);
    const cancelled = await request(web.url, "DELETE", `/v1/jobs/${jobId}`, { key });
    expect(cancelled.body).to.deep.equal({ job_id: jobId, status: "cancelled" });
    // The job in shard 2's queue completes well before its 60-second call would have.
    const jobs = await eventually(async () => {
      const list = await board(`/queues?activeQueue=shard-2.agent&status=completed&page=1&jobsPerPage=100`);
      const queue = (list.body.queues as { name: string; jobs: { id: string }[] }[]).find(
        (q) => q.name === "shard-2.agent",
      );
      return queue?.jobs.some((j) => j.id === jobId) ? queue.jobs : undefined;
    }, 10_000);
    expect(jobs.map((j) => j.id)).to.include(jobId);
    expect((await findRun(h.deps.ds, jobId))?.status).to.equal("cancelled");
  });

  it("shows every shard's queues on Bull Board, each job under its account's shard", async () => {
    const list = await board("/queues?page=1&jobsPerPage=10");
    expect(list.status).to.equal(200);
    const names = (list.body.queues as { name: string }[]).map((q) => q.name);
    expect(names).to.have.members(
      [0, 1, 2].flatMap((shard) => ["swarm", "agent", "chain"].map((queue) => `shard-${shard}.${queue}`)),
    );
    for (const [shard, jobId] of agentJobs.entries()) {
      const found = await board(`/queues/shard-${shard}.agent/${jobId}`);
      expect(found.status, `shard ${shard}'s job on its board queue`).to.equal(200);
      expect(found.body.job).to.include({ id: jobId });
      const elsewhere = await board(`/queues/shard-${(shard + 1) % SHARDS}.agent/${jobId}`);
      expect(elsewhere.status, `shard ${shard}'s job under another shard`).to.equal(404);
    }
  });

  it("keeps each shard's keys on its own master, and each account's keys (queues, limits, spend, streams) in its shard", async () => {
    const clients = cluster.nodeClients();
    const perNode = await Promise.all(clients.map((client) => allKeys(client)));
    // Each master holds keys, and all of one shard's are on one master, a different one for each shard.
    expect(perNode.map((keys) => keys.length > 0)).to.deep.equal([true, true, true]);
    const nodeOfShard = PREFIXES.map((prefix) => {
      const holding = perNode.flatMap((keys, node) => (keys.some((k) => k.startsWith(`${prefix}:`)) ? [node] : []));
      expect(holding, `nodes holding ${prefix}`).to.have.length(1);
      return holding[0];
    });
    expect(new Set(nodeOfShard).size).to.equal(SHARDS);
    // Every key is in one of the shards' slots (as Redis itself reckons them), on that shard's master.
    const slots = await Promise.all(PREFIXES.map((prefix) => clients[0].cluster("KEYSLOT", `${prefix}:agent:wait`)));
    expect(slots).to.deep.equal(PREFIXES.map((prefix) => slotOf(prefix)));
    for (const [node, keys] of perNode.entries())
      expect(keys.filter((k) => slotOf(k) !== slots[nodeOfShard.indexOf(node)])).to.deep.equal([]);

    for (const [shard, account] of accounts.entries()) {
      const keys = perNode[nodeOfShard[shard]];
      const prefix = PREFIXES[shard];
      expect(keys, `shard ${shard}`).to.include.members([
        `${prefix}:agent:completed`,
        `${prefix}:rl:account:minute:${account.userId}`,
        `${prefix}:rl:key:minute:${account.keyId}`,
      ]);
    }
    const shard1 = perNode[nodeOfShard[1]].filter((k) => k.startsWith(`${PREFIXES[1]}:`));
    for (const kind of [":swarm:completed", ":spend:account:", ":spend:request:", ":run-events:"])
      expect(
        shard1.some((k) => k.includes(kind)),
        `no ${kind} key in shard 1`,
      ).to.equal(true);

    const single = createRedis("blocking", config.redisUrl);
    try {
      expect((await allKeys(single)).filter((k) => PREFIXES.some((prefix) => k.startsWith(prefix)))).to.deep.equal([]);
    } finally {
      single.disconnect();
    }
  });

  it("renews the open-request leases of accounts on every shard (each master gets its own renewal)", async () => {
    const client = new Cluster(
      cluster.urls.map((url) => ({ host: "127.0.0.1", port: Number(new URL(url).port) })),
      { redisOptions: { maxRetriesPerRequest: null } },
    );
    try {
      await eventually(async () => (client.status === "ready" ? true : undefined), 10_000);
      const prefix = (userId: string) => `${PREFIXES[shardOf(userId, SHARDS)]}:open-renewal`;
      const open = new OpenRequests(client as unknown as RedisClient, {
        tiers: { free: { perKey: 5, perAccount: 5 } },
        prefix,
        leaseMs: 900,
      });
      const leases = [];
      for (const account of accounts) {
        // Leases are taken by the admission script, with the account's rate limits, all in its shard's slot.
        const shardPrefix = PREFIXES[shardOf(account.userId, SHARDS)];
        const limiter = createRateLimiter(client as unknown as RedisClient, {
          tiers: { free: config.rateLimits.tiers.free },
          prefix: `${shardPrefix}:rl-renewal`,
          spendPrefix: shardPrefix,
          timeoutMs: 5_000,
        });
        const subject = { apiKeyId: account.keyId, userId: account.userId, tier: "free" };
        const { lease } = await limiter.consume(subject, { points: 1, startsRuns: false, openRequests: open });
        if (!lease) throw new Error("no lease");
        leases.push(lease);
      }
      const expiries = () =>
        Promise.all(
          accounts.map(async (a) =>
            Number((await client.zrange(`${prefix(a.userId)}:account:${a.userId}`, 0, 0, "WITHSCORES"))[1]),
          ),
        );
      const first = await expiries();
      // Renewed every third of a lease: each shard's lease must move on (a renewal pipeline spanning
      // several masters is refused by the cluster client, and every lease would lapse).
      const renewed = await eventually(async () => {
        const now = await expiries();
        return now.every((expiry, i) => expiry > first[i]) ? now : undefined;
      }, 5_000);
      expect(renewed).to.have.length(SHARDS);
      for (const lease of leases) lease.release();
    } finally {
      client.disconnect();
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
