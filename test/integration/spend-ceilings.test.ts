import { expect } from "chai";
import { Queue } from "bullmq";
import { config } from "../../shared/config";
import { accountSpendKey, requestSpendKey, SPEND_FIELDS } from "../../shared/limits/shared-spend";
import { utcDay } from "../../shared/limits/utc-day";
import { createRedis, type RedisClient } from "../../shared/queues/redis";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { dataUrl, PNG_1PX } from "../helpers/images";
import { ProcessDeployment, type WebProcess, type WorkerProcess } from "../helpers/process-deployment";

/**
 * Spend ceilings shared by several runs, with small ceilings set the way an operator sets them
 * (the environment of a web process and two agent workers): a batch's items together stay within
 * the tier's one-run ceiling although they run side by side on different workers, and an
 * account's runs stop, and new ones are refused, once its spend of the day reaches its ceiling. Both
 * count in dollars what the runs' bills count, flat charges (images here) included.
 * The processes use a queue prefix of their own; the harness provides the database, keys and the
 * LLM simulator.
 */
const PREFIX = config.queue.prefix.replace("}", "-spend}");
const RUN_MAX_TOKENS = 1_000;
const DAILY_TOKENS = 1_500;
const RUN_MAX_COST = 0.6;
const DAILY_COST = 1;
const { perAgent, perImage } = config.pricing;

/** About 300 tokens of answer for every call, so a few calls reach the ceilings. */
const LONG_REPLY = "word ".repeat(300).trim();
const agent = (name: string, maxLoops = 1) => ({
  agent_name: name,
  max_loops: maxLoops,
  llm_args: { sim_reply: LONG_REPLY, sim_latency_ms: 100 },
});

describe("spend ceilings shared by several runs (web and worker processes with small ceilings)", function () {
  this.timeout(180_000);
  let h: Harness;
  let deployment: ProcessDeployment;
  let web: WebProcess;
  let workers: WorkerProcess[];
  let redis: RedisClient;
  let agentQueue: Queue;

  before(async function () {
    this.timeout(300_000);
    h = await harness();
    redis = createRedis("blocking");
    agentQueue = new Queue("agent", { connection: redis, prefix: PREFIX });
    deployment = new ProcessDeployment({
      ...process.env,
      QUEUE_PREFIX: PREFIX,
      LOG_LEVEL: "warn",
      RUN_MAX_TOKENS_FREE: String(RUN_MAX_TOKENS),
      ACCOUNT_DAILY_TOKENS_FREE: String(DAILY_TOKENS),
      RUN_MAX_COST_FREE: String(RUN_MAX_COST),
      ACCOUNT_DAILY_COST_FREE: String(DAILY_COST),
      // Three items per worker at most, so a batch's items spread over both.
      WORKER_CONCURRENCY_AGENT: "3",
    });
    [web, ...workers] = await Promise.all([
      deployment.startWeb("web"),
      deployment.startWorker("worker-1", ["agent", "swarm"]),
      deployment.startWorker("worker-2", ["agent"]),
    ]);
  });

  after(async () => {
    await deployment?.stop();
    await agentQueue?.close();
    redis?.disconnect();
  });

  /** Tokens the runs' LLM calls used (input and output), from the step ledger. */
  async function ledger(runIds: string[]): Promise<{ tokens: number }> {
    const [row] = await h.deps.ds.query(
      "SELECT coalesce(sum(input_tokens + output_tokens), 0)::int AS tokens FROM run_steps WHERE run_id = ANY($1::uuid[])",
      [runIds],
    );
    return row;
  }

  /** What the runs were billed, from the usage ledger. */
  async function billed(where: string, id: string): Promise<number> {
    const [row] = await h.deps.ds.query(
      `SELECT coalesce(sum(billed_cost), 0)::float AS billed FROM usage_ledger WHERE ${where} = $1 AND kind = 'agent'`,
      [id],
    );
    return row.billed;
  }

  /** Dollars a shared pool has counted (its Redis hash). */
  const poolCost = async (key: string) => Number(await redis.hget(key, SPEND_FIELDS.cost));

  /** An agent run with an image ($0.25): its flat charges are most of its cost. */
  const withImage = (name: string, task: string) => ({
    agent_config: { agent_name: name, llm_args: { sim_reply: "ok" } },
    task,
    img: dataUrl(PNG_1PX),
  });

  it("keeps a batch's items together within the tier's one-run ceiling, though they run on different workers", async () => {
    const { key, userId } = await h.newKey();
    const items = Array.from({ length: 6 }, (_, i) => ({
      agent_config: agent(`Item ${i}`),
      task: `Say many words, please (${i})`,
    }));
    const res = await request(web.url, "POST", "/v1/agent/batch/completions", { key, body: items });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);

    const children: { id: string; status: string; error: { code: string; message: string } | null }[] =
      await h.deps.ds.query("SELECT id, status, error FROM runs WHERE parent_id = $1 ORDER BY item_index", [
        res.body.batch_id,
      ]);
    const spent = await ledger(children.map((c) => c.id));
    // One item alone (about 330 tokens) stays well within the ceiling; the six would spend about
    // twice it, so some items stop.
    const succeeded = children.filter((c) => c.status === "succeeded");
    expect(succeeded.length).to.be.within(1, 4);
    // Each call held room for its estimated prompt and its answer: the ceiling is never passed.
    expect(spent.tokens)
      .to.be.greaterThan(RUN_MAX_TOKENS / 2)
      .and.at.most(RUN_MAX_TOKENS);
    const stopped = children.filter((c) => c.status === "failed");
    expect(stopped.length).to.be.at.least(2);
    for (const child of stopped) {
      expect(child.error).to.deep.include({
        code: "BUDGET_EXCEEDED",
        message: `The batch's items together reached their limit of ${RUN_MAX_TOKENS} tokens (they share one budget)`,
      });
    }
    const slots = res.body.results.filter((r: { success: boolean }) => !r.success);
    expect(slots.map((r: { code: string }) => r.code)).to.deep.equal(stopped.map(() => "BUDGET_EXCEEDED"));

    const ranOn = await Promise.all(children.map(async (c) => (await agentQueue.getJob(c.id))?.processedBy));
    expect(new Set(ranOn), "items ran on both workers").to.deep.equal(new Set(workers.map((w) => w.name)));
    const [{ runs }] = await h.deps.ds.query("SELECT count(*)::int AS runs FROM runs WHERE user_id = $1", [userId]);
    expect(runs).to.equal(items.length + 1);
  });

  it("keeps a swarm batch's swarms together within the same ceiling", async () => {
    const { key } = await h.newKey();
    // Two agents of about 150 tokens of answer each: about 400 tokens a swarm, 1,600 for the four.
    const short = (name: string) => ({ ...agent(name), max_tokens: 150 });
    const items = Array.from({ length: 4 }, (_, i) => ({
      name: `Swarm ${i}`,
      swarm_type: "SequentialWorkflow",
      agents: [short("Drafter"), short("Checker")],
      task: `Talk (${i})`,
    }));
    const res = await request(web.url, "POST", "/v1/swarm/batch/completions", { key, body: items });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const children: { id: string }[] = await h.deps.ds.query(
      "SELECT id FROM runs WHERE parent_id = (SELECT parent_id FROM runs WHERE id = $1)",
      [res.body[0].job_id],
    );
    expect(children).to.have.length(items.length);
    const spent = await ledger(children.map((c) => c.id));
    expect(spent.tokens)
      .to.be.greaterThan(RUN_MAX_TOKENS / 2)
      .and.at.most(RUN_MAX_TOKENS);
    const stopped = res.body.filter((slot: { status: string }) => slot.status === "error");
    expect(stopped.length).to.be.at.least(1);
    for (const slot of stopped)
      expect(slot.detail).to.match(
        new RegExp(
          `^Agent '\\w+' failed: The batch's items together reached their limit of ${RUN_MAX_TOKENS} tokens \\(they share one budget\\)$`,
        ),
      );
  });

  it("stops a run in flight once its account's spend of the day reaches the ceiling, then refuses new runs with 429", async () => {
    const { key } = await h.newKey();
    // Each of these spends about 330 tokens: together about 1,300 of the account's 1,500.
    for (let i = 0; i < 4; i++) {
      const res = await request(web.url, "POST", "/v1/agent/completions", {
        key,
        body: { agent_config: agent(`Warm-up ${i}`), task: `Say many words (${i})` },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    // Admitted with room left; its own budget would allow five review loops, the account's day does not.
    const stopped = await request(web.url, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: agent("Long talker", 5), task: "Say many words, again and again" },
    });
    expect(stopped.status, JSON.stringify(stopped.body)).to.equal(500);
    expect(stopped.body).to.include({ code: "BUDGET_EXCEEDED" });
    expect(stopped.body.detail).to.equal(
      `The account reached its daily limit of ${DAILY_TOKENS} tokens (all its runs of the UTC day together)`,
    );
    const steps = await ledger([stopped.body.job_id]);
    expect(steps.tokens, "it made calls before it was stopped").to.be.greaterThan(0);

    const refused = await request(web.url, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: agent("Too late"), task: "never runs" },
    });
    expect(refused.status).to.equal(429);
    expect(refused.body).to.include({ code: "RATE_LIMITED", status_code: 429 });
    expect(refused.body.detail).to.match(
      new RegExp(
        `^Daily token limit reached: the account has used \\d+ of the ${DAILY_TOKENS} tokens its runs may use per UTC day \\(free tier\\)`,
      ),
    );
  });

  it("counts a batch's flat charges in its shared budget: an image the items together cannot pay for is not bought", async () => {
    const { key } = await h.newKey();
    const items = Array.from({ length: 3 }, (_, i) => withImage(`Viewer ${i}`, `Look at this (${i})`));
    const res = await request(web.url, "POST", "/v1/agent/batch/completions", { key, body: items });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const children: { status: string; error: { code: string; message: string } | null; usage: any }[] =
      await h.deps.ds.query("SELECT status, error, usage FROM runs WHERE parent_id = $1 ORDER BY item_index", [
        res.body.batch_id,
      ]);
    // Each item costs its agent ($0.01), its image ($0.25) and a few tokens: two fit in $0.6, three do not.
    const stopped = children.filter((c) => c.status === "failed");
    expect(stopped).to.have.length(1);
    expect(stopped[0].error).to.deep.include({
      code: "BUDGET_EXCEEDED",
      message: `The batch's items together reached their cost limit of $${RUN_MAX_COST} (they share one budget)`,
    });
    expect(stopped[0].usage).to.deep.include({ img_cost: 0, total_cost: perAgent, total_tokens: 0 });
    const spent = await billed("parent_id", res.body.batch_id);
    expect(spent)
      .to.be.greaterThan(2 * (perAgent + perImage))
      .and.at.most(RUN_MAX_COST);
    expect(await poolCost(requestSpendKey(res.body.batch_id, PREFIX))).to.be.closeTo(spent, 1e-5);
  });

  it("counts flat charges in the account's day: the run whose image would pass the daily cost ceiling stops without it", async () => {
    const { key, userId } = await h.newKey();
    // About $0.261 each: three leave the day's spend under its $1 ceiling, so a fourth is admitted.
    for (let i = 0; i < 3; i++) {
      const res = await request(web.url, "POST", "/v1/agent/completions", {
        key,
        body: withImage(`Viewer ${i}`, `Look at this (${i})`),
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.usage.img_cost).to.equal(perImage);
    }
    const stopped = await request(web.url, "POST", "/v1/agent/completions", {
      key,
      body: withImage("Viewer 3", "Look at this too"),
    });
    expect(stopped.status, JSON.stringify(stopped.body)).to.equal(500);
    expect(stopped.body.detail).to.equal(
      `The account reached its daily cost limit of $${DAILY_COST} (all its runs of the UTC day together)`,
    );
    const [run] = await h.deps.ds.query("SELECT usage FROM runs WHERE id = $1", [stopped.body.job_id]);
    expect(run.usage).to.deep.include({ img_cost: 0, total_cost: perAgent, total_tokens: 0 });
    // The day's counter holds what the account was billed, and that stays within the ceiling.
    const spent = await billed("user_id", userId);
    expect(spent)
      .to.be.greaterThan(3 * (perAgent + perImage))
      .and.at.most(DAILY_COST);
    expect(await poolCost(accountSpendKey(userId, utcDay(new Date()), PREFIX))).to.be.closeTo(spent, 1e-5);
  });
});
