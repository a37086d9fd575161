import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { config } from "../../shared/config";
import type { JobSteps } from "../../shared/queues/job-outcome";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { insertPrompt } from "../helpers/marketplace-prompts";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";
import { postReasoning } from "../helpers/reasoning";
import { agent, postSwarm } from "../helpers/swarm";

/** What an operator sees of runs: Bull Board's own API (job data, progress, logs), `GET /v1/jobs` progress, the 504's headers. */
describe("what operators see of a run", () => {
  let h: Harness;
  let owner: { key: string; userId: string; keyId: string };
  const basic = Buffer.from(`${config.admin.user}:${config.admin.password}`).toString("base64");

  /** A GET on Bull Board's JSON API, as its UI makes it. */
  const board = (path: string) =>
    request(h.baseUrl, "GET", `/admin/queues/api${path}`, { headers: { authorization: `Basic ${basic}` } });

  /**
   * A finished job's board entry, once the board lists it as completed. The board reads the job and
   * then its state, so a job that completes between the two reads shows as completed with the
   * fields it had while active (no return value, no finishedOn): wait for the finished fields too.
   */
  const completedJob = (queue: string, jobId: string) =>
    eventually(async () => {
      const found = await board(`/queues/${queue}/${jobId}`);
      return found.body?.status === "completed" && found.body.job.finishedOn ? found.body.job : undefined;
    });

  /**
   * A finished job's steps as the board shows them: its progress and log, or, for a run that ended
   * before its first report window was out, its return value's (never some in each).
   */
  const shownSteps = async (queue: string, job: { id: string; progress: unknown; returnValue?: JobSteps }) => {
    const written = (await board(`/queues/${queue}/${job.id}/logs`)).body as string[];
    if (!job.returnValue?.log) return { progress: job.progress, logs: written };
    expect(written, "a job's lines are in its log or its return value").to.deep.equal([]);
    expect(job.progress).to.equal(0);
    return { progress: job.returnValue.progress, logs: job.returnValue.log };
  };

  before(async () => {
    h = await harness();
    owner = await h.newKey();
  });

  it("writes no progress or log for a run that ends at once: its return value shows its call", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: owner.key,
      body: { agent_config: { agent_name: "Quick", model_name: "gpt-4o-mini" }, task: "answer at once" },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const job = await completedJob("agent", res.body.job_id);
    expect(job.progress).to.equal(0);
    expect((await board(`/queues/agent/${job.id}/logs`)).body).to.deep.equal([]);
    expect(job.returnValue.progress).to.deep.equal({ done: 1, total: 1 });
    expect(job.returnValue.log).to.have.length(1);
    expect(job.returnValue.log[0]).to.match(/^agent=Quick model=gpt-4o-mini tokens=[1-9]\d* cost=[\d.e-]+ ms=\d+$/);
  });

  it("shows a longer run's progress moving while it runs, and writes its log lines as it goes", async function () {
    this.timeout(30_000);
    const slow = (name: string) => agent(name, { llm_args: { sim_latency_ms: 400 } });
    const res = await postSwarm(
      h,
      owner.key,
      { swarm_type: "SequentialWorkflow", task: "three slow steps", agents: [slow("One"), slow("Two"), slow("Three")] },
      { prefer: "respond-async" },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const jobId: string = res.body.job_id;
    const moving = await eventually(
      async () => {
        const found = await board(`/queues/swarm/${jobId}`);
        return found.body?.status === "active" && found.body.job.progress?.done >= 1 ? found.body.job : undefined;
      },
      15_000,
      100,
    );
    expect(moving.progress.done).to.be.below(3);
    expect(moving.progress.total).to.equal(3);
    const job = await completedJob("swarm", jobId);
    expect(job.progress).to.deep.equal({ done: 3, total: 3 });
    expect(job.returnValue).to.not.have.any.keys("progress", "log");
    const logs = (await board(`/queues/swarm/${jobId}/logs`)).body as string[];
    expect(logs.map((line) => line.split(" ")[0])).to.deep.equal(["agent=One", "agent=Two", "agent=Three"]);
    // Written with its log lines, not by BullMQ's per-call progress script, whose event-stream
    // entries nothing reads (docs/run-cost-profile.md).
    const queue = h.deps.queues.shards[0].swarm;
    const events = await h.deps.redis.xrange(`${queue.qualifiedName}:events`, "-", "+");
    const progressEvents = events.filter(([, fields]) => fields.includes("progress") && fields.includes(jobId));
    expect(progressEvents).to.deep.equal([]);
  });

  it("Bull Board shows a finished swarm's job: what it runs, progress done == total, a log line per LLM call, no secret", async () => {
    const tag = randomUUID().slice(0, 8);
    const providerKey = `sk-board-${tag}`;
    const task = `Compare home batteries ${tag} for a family of four, with prices, lifetimes and the trade-offs involved`;
    const res = await postSwarm(h, owner.key, {
      name: "Battery brief",
      swarm_type: "SequentialWorkflow",
      max_loops: 2,
      task,
      agents: [
        agent("Researcher", { model_name: "gpt-4.1", llm_args: { metadata: { api_key: providerKey } } }),
        agent("Writer", { model_name: "gpt-4o-mini", llm_args: { metadata: { api_key: providerKey } } }),
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const jobId: string = res.body.job_id;

    // The job is marked completed just after the run's answer: poll the board's listing for it.
    const job = await eventually(async () => {
      const list = await board("/queues?activeQueue=swarm&status=completed&page=1&jobsPerPage=100");
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      const swarm = list.body.queues.find((q: { name: string }) => q.name === "swarm");
      return swarm.jobs.find((j: { id: string }) => j.id === jobId);
    });
    expect(job.name).to.equal("swarm-run · SequentialWorkflow · Researcher, Writer");
    expect(job.data).to.deep.include({
      runId: jobId,
      kind: "swarm",
      swarmType: "SequentialWorkflow",
      account: owner.userId,
      keyId: owner.keyId,
    });
    expect(job.data.agents).to.deep.equal(["Researcher", "Writer"]);
    expect(job.data.models).to.deep.equal(["gpt-4.1", "gpt-4o-mini"]);
    expect(job.data.task)
      .to.have.length.at.most(80)
      .and.satisfy((t: string) => task.startsWith(t.slice(0, -1)));
    expect(JSON.stringify(job)).to.not.include(providerKey);
    expect(JSON.stringify(job)).to.not.include(owner.key);

    const { progress, logs } = await shownSteps("swarm", job);
    expect(progress).to.deep.equal({ done: 4, total: 4 }); // 2 agents × 2 loops
    expect(logs).to.have.length(4);
    for (const line of logs) expect(line).to.match(/^agent=\w+ model=[\w.-]+ tokens=[1-9]\d* cost=[\d.e-]+ ms=\d+$/);
    expect(logs.filter((l) => l.startsWith("agent=Researcher model=gpt-4.1 "))).to.have.length(2);
    expect(logs.filter((l) => l.startsWith("agent=Writer model=gpt-4o-mini "))).to.have.length(2);
  });

  describe("with an MCP server and a paid prompt", () => {
    let mcp: McpTestServer;
    before(async () => {
      mcp = await startMcpTestServer();
    });
    after(async () => mcp.close());

    it("keeps MCP tokens and a paid prompt's text out of the job Bull Board shows", async () => {
      const tag = randomUUID().slice(0, 8);
      const token = `mcp-token-${tag}`;
      const paidText = `You are the paid prompt ${tag}, never to be shown.`;
      const seller = await h.newKey();
      const paid = await insertPrompt(h.deps.ds, {
        userId: seller.userId,
        prompt: paidText,
        isFree: false,
        priceUsd: 5,
      });
      const res = await postSwarm(
        h,
        owner.key,
        {
          swarm_type: "ConcurrentWorkflow",
          task: `Use the tools ${tag}`,
          agents: [
            agent("Toolsmith", { mcp_config: { url: mcp.url, authorization_token: token, timeout: 5 } }),
            { agent_name: "Bought", marketplace_prompt_id: paid.id, llm_args: { sim_reply: "noted" } },
          ],
        },
        { prefer: "respond-async" },
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const answer = await board(`/queues/swarm/${res.body.job_id}`);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.body.job.data.agents).to.deep.equal(["Toolsmith", "Bought"]);
      const text = JSON.stringify(answer.body);
      expect(text).to.not.include(token);
      expect(text).to.not.include(paidText);
      await eventually(async () => {
        const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key: owner.key });
        return ["success", "failed"].includes(job.body.status) ? true : undefined;
      });
    });
  });

  it("shows a failed run's job as failed, with the run's error as its reason", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: owner.key,
      body: { agent_config: { agent_name: "Broken", llm_args: { sim_error: 400 } }, task: "fail for the board" },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    const answer = await eventually(async () => {
      const found = await board(`/queues/agent/${res.body.job_id}`);
      return found.body?.status === "failed" ? found.body : undefined;
    });
    expect(answer.job.failedReason).to.equal(res.body.detail);
    expect(answer.job.attempts).to.equal(1); // never retried: the run row is final
  });

  it("shows how a finished run ended, as Postgres records it: a completed job in its return value, a failed one in its log", async () => {
    const tag = randomUUID().slice(0, 8);
    const ok = await postSwarm(h, owner.key, {
      swarm_type: "SequentialWorkflow",
      task: `Two steps ${tag}`,
      agents: [agent("First"), agent("Last", { llm_args: { sim_reply: `The last word on ${tag}.\n\nIndeed.` } })],
    });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    const done = await completedJob("swarm", ok.body.job_id);
    const [row] = await h.deps.ds.query("SELECT usage FROM runs WHERE id = $1", [ok.body.job_id]);
    const { progress, log, ...outcome } = done.returnValue;
    // The steps of a run that ended within its first report window ride along (see above).
    if (log) expect({ progress, lines: log.length }).to.deep.equal({ progress: { done: 2, total: 2 }, lines: 2 });
    expect(outcome).to.deep.equal({
      runId: ok.body.job_id,
      status: "succeeded",
      tokens: row.usage.total_tokens,
      cost: row.usage.billing_info.total_cost,
      output: `The last word on ${tag}. Indeed.`,
    });

    const failed = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: owner.key,
      body: { agent_config: { agent_name: "Broken", llm_args: { sim_error: 400 } }, task: `fail ${tag}` },
    });
    expect(failed.status, JSON.stringify(failed.body)).to.equal(500);
    const failedJob = await eventually(async () => {
      const found = await board(`/queues/agent/${failed.body.job_id}`);
      return found.body?.status === "failed" ? found.body.job : undefined;
    });
    expect(failedJob.failedReason).to.equal(failed.body.detail);
    const [failedRow] = await h.deps.ds.query("SELECT usage FROM runs WHERE id = $1", [failed.body.job_id]);
    const logs = (await board(`/queues/agent/${failed.body.job_id}/logs`)).body as string[];
    expect(logs).to.deep.equal([
      `outcome status=failed tokens=${failedRow.usage.total_tokens} cost=${failedRow.usage.total_cost}`,
    ]);
  });

  it("ends a job delivered again for a run that has ended the way the run did, running nothing", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: owner.key,
      body: { agent_config: { agent_name: "Broken", llm_args: { sim_error: 400 } }, task: "fail, then be moved back" },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    const jobId: string = res.body.job_id;
    const job = await eventually(async () => {
      const found = await h.deps.queues.shards[0].agent.getJob(jobId);
      return (await found?.getState()) === "failed" ? found : undefined;
    });
    const [before] = await h.deps.ds.query("SELECT * FROM runs WHERE id = $1", [jobId]);
    const calls = h.sim.journal.length;
    // What Bull Board's own Retry does: BullMQ's retry, the run left as it was.
    await job.retry("failed");
    await eventually(async () => ((await job.getState()) !== "failed" ? true : undefined));
    const ended = await eventually(async () => {
      const state = await job.getState();
      return state === "failed" || state === "completed" ? state : undefined;
    });
    expect(ended).to.equal("failed");
    expect((await h.deps.queues.shards[0].agent.getJob(jobId))!.failedReason).to.equal(res.body.detail);
    const [after] = await h.deps.ds.query("SELECT * FROM runs WHERE id = $1", [jobId]);
    expect(after).to.deep.equal(before);
    expect(h.sim.journal.length).to.equal(calls);
  });

  it("GET /v1/jobs/{id} of a running swarm shows its progress moving, from the stored steps", async () => {
    const slow = { sim_latency_ms: 700 };
    const res = await postSwarm(
      h,
      owner.key,
      {
        swarm_type: "SequentialWorkflow",
        task: `Step by step ${randomUUID().slice(0, 8)}`,
        agents: ["First", "Second", "Third"].map((name) => agent(name, { llm_args: slow })),
      },
      { prefer: "respond-async" },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const read = async () => (await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key: owner.key })).body;

    const first = await eventually(async () => {
      const job = await read();
      return job.status === "running" && job.progress.steps_done >= 1 ? job : undefined;
    });
    expect(first.progress.steps_total).to.equal(3);
    expect(first.progress.turns[0]).to.include({ agent: "First", type: "llm" });
    expect(first.progress.turns[0].output_tokens).to.be.above(0);
    const later = await eventually(async () => {
      const job = await read();
      return job.status !== "running" || job.progress.steps_done > first.progress.steps_done ? job : undefined;
    });
    if (later.status === "running") expect(later.progress.turns[1]).to.include({ agent: "Second" });
    else expect(later.status).to.equal("success"); // the last steps finished between two reads
    const done = await eventually(async () => ((await read()).status === "success" ? true : undefined));
    expect(done).to.equal(true);
  });

  it("GET /v1/jobs/{id} of a running reasoning agent shows its progress too, with no total (the model decides it)", async () => {
    // A key of its own, read every 300 ms: its polls must not use up the rate limit the other tests' key shares.
    const { key } = await h.newKey();
    const res = await postReasoning(
      h,
      key,
      {
        agent_name: "Duo",
        swarm_type: "reasoning-duo",
        max_loops: 2,
        task: `Reason it out ${randomUUID().slice(0, 8)}`,
        llm_args: { sim_latency_ms: 700 },
      },
      { prefer: "respond-async" },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const read = async () => (await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key })).body;
    const going = await eventually(
      async () => {
        const job = await read();
        expect(job.status, JSON.stringify(job)).to.not.equal("success"); // 4 calls of 0.7 s each: still going
        return job.status === "running" && job.progress?.steps_done >= 1 ? job : undefined;
      },
      25_000,
      300,
    );
    expect(going.progress.steps_total).to.equal(null);
    expect(going.progress.turns[0]).to.include({ agent: "Duo-reasoner", type: "llm" });
    const done = await eventually(async () => ((await read()).status === "success" ? true : undefined), 25_000, 300);
    expect(done).to.equal(true);
  });

  it("answers a run that outlives the wait with 504, its job id, Location and Retry-After", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: owner.key,
      headers: { prefer: "wait=1" },
      body: { agent_config: { agent_name: "Slow", llm_args: { sim_latency_ms: 2_500 } }, task: "take your time" },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(504);
    expect(res.body).to.include({ code: "RUN_TIMEOUT" });
    expect(res.headers.get("location")).to.equal(`/v1/jobs/${res.body.job_id}`);
    expect(res.headers.get("retry-after")).to.equal("5");
    const followed = await request(h.baseUrl, "GET", res.headers.get("location")!, { key: owner.key });
    expect(followed.status).to.equal(200);
    expect(followed.body.job_id).to.equal(res.body.job_id);
  });
});
