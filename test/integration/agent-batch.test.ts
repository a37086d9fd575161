import { expect } from "chai";
import { findRun } from "../../shared/db/runs/run-rows";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { startImageServer, type ImageServer } from "../helpers/image-server";

const AGENT_BATCH = "/v1/agent/batch/completions";

describe("POST /v1/agent/batch/completions", () => {
  let h: Harness;
  let key: string;
  let images: ImageServer;
  before(async () => {
    ({ h, key } = await harnessWithKey());
    images = await startImageServer(); // image URLs are fetched by the worker: an allowed local server
  });
  after(async () => images?.close());

  it("runs every item as its own run, in parallel, and answers in request order with failures in their slots", async () => {
    const marker = `batch-${Date.now()}`;
    const items = [
      {
        agent_config: { agent_name: "Slowest", llm_args: { sim_latency_ms: 600 } },
        task: `${marker} one`,
        history: [{ role: "user", content: "earlier" }],
      },
      { agent_config: { agent_name: "Broken", llm_args: { sim_error: 400 } }, task: `${marker} two` },
      {
        agent_config: { agent_name: "Fast", llm_args: { sim_latency_ms: 50 } },
        task: `${marker} three`,
        img: `${images.url}/a.png`,
      },
    ];
    const started = Date.now();
    const res = await request(h.baseUrl, "POST", AGENT_BATCH, { key, body: items });
    const elapsed = Date.now() - started;
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include.all.keys("batch_id", "total_requests", "results", "execution_time", "timestamp");
    expect(res.body.total_requests).to.equal(3);
    const [one, two, three] = res.body.results;
    expect(one).to.include({ success: true, name: "Slowest" });
    expect(two).to.include({ success: false, index: 1 });
    expect(two.error).to.match(/HTTP 400/);
    expect(three).to.include({ success: true, name: "Fast" });
    expect(three.usage.img_cost).to.equal(0.25);
    expect(elapsed).to.be.lessThan(600 + 50 + 2_000); // the items did not wait for each other
    expect(res.body.execution_time)
      .to.be.at.least(0.6)
      .and.at.most(elapsed / 1_000); // the whole batch, not the parent's last step

    const sentHistory = h.sim.journal.find((e: any) => JSON.stringify(e.body.messages).includes(`${marker} one`))!
      .body as any;
    expect(sentHistory.messages[1]).to.deep.equal({ role: "user", content: "earlier" });
    const children = await h.deps.ds.query(
      "SELECT item_index, status FROM runs WHERE parent_id = $1 ORDER BY item_index",
      [res.body.batch_id],
    );
    expect(children.map((c: any) => c.status)).to.deep.equal(["succeeded", "failed", "succeeded"]);
    const parent = await findRun(h.deps.ds, res.body.batch_id);
    expect(parent?.kind).to.equal("agent_batch");
    expect(parent?.usage?.total_tokens).to.equal(one.usage.total_tokens + three.usage.total_tokens);
  });

  it("can be fetched later through GET /v1/jobs with Prefer: respond-async", async () => {
    const res = await request(h.baseUrl, "POST", AGENT_BATCH, {
      key,
      headers: { prefer: "respond-async" },
      body: [
        { agent_config: { agent_name: "A" }, task: "a" },
        { agent_config: { agent_name: "B" }, task: "b" },
      ],
    });
    expect(res.status).to.equal(202);
    const done = await eventually(async () => {
      const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
      return job.body.status === "success" ? job.body : undefined;
    });
    expect(done.results.map((r: any) => r.name)).to.deep.equal(["A", "B"]);
  });

  it("refuses an empty batch and one over MAX_BATCH_SIZE with 400, and bad items (a missing task too) with 422 naming their index", async () => {
    const empty = await request(h.baseUrl, "POST", AGENT_BATCH, { key, body: [] });
    expect(empty.status).to.equal(400);
    expect(empty.body.code).to.equal("EMPTY_BATCH");
    const big = await request(h.baseUrl, "POST", AGENT_BATCH, {
      key,
      body: Array.from({ length: 101 }, () => ({ agent_config: {}, task: "x" })),
    });
    expect(big.status).to.equal(400);
    expect(big.body.code).to.equal("BATCH_TOO_LARGE");
    const bad = await request(h.baseUrl, "POST", AGENT_BATCH, {
      key,
      body: [{ agent_config: {}, task: "x" }, { task: "no config" }, { agent_config: {} }],
    });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail.map((d: any) => d.loc.join("."))).to.deep.equal(["body.1.agent_config", "body.2.task"]);
    const notArray = await request(h.baseUrl, "POST", AGENT_BATCH, { key, body: { agent_config: {} } });
    expect(notArray.status).to.equal(422);
  });
});
