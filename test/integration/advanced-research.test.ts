import { expect } from "chai";
import { config } from "../../shared/config";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { searchResultBody, searchServerForSuite } from "../helpers/search-server";
import { callsMentioning } from "../helpers/swarm";
import { expectSdkType, swarmsClient } from "../helpers/swarms-sdk";

const PATH = "/v1/advanced-research/completions";
const LATENCY_MS = 500;

/** Makes this file's markers its own in the shared simulator journal. */
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe("advanced research (POST /v1/advanced-research/completions and its batch)", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  const search = searchServerForSuite();
  before(async () => ({ h, key } = await harnessWithKey()));

  /** Makes the director plan `queries` for a task starting with `marker`. */
  function scriptPlan(marker: string, queries: string[]) {
    h.sim.script({
      contains: `Plan web searches for this research task:\n${marker}`,
      reply: JSON.stringify({ queries }),
    });
  }
  const lastUser = (call: any) => call.messages.filter((m: any) => m.role === "user").at(-1).content as string;

  it("plans, searches with one researcher per query in parallel, and reports: calls, order, inputs, depth, answer, billing (through the SDK)", async () => {
    const marker = `research-marker-1-${RUN}`;
    const queries = [`${marker} uses`, `${marker} growth`, `${marker} prices`];
    scriptPlan(marker, queries);
    search.set({ results: "echo", latencyMs: LATENCY_MS });
    const before = search.requests.length;
    const answer = await swarmsClient(h.baseUrl, key).client.advancedResearch.createCompletion({
      task: `${marker}: what is beeswax used for?`,
      config: {
        name: "Beeswax",
        description: "A short study",
        director_model_name: "gpt-4o",
        worker_model_name: "gpt-4o-mini",
        director_max_tokens: 777,
        exa_search_num_results: 2,
        exa_search_max_characters: 500,
      },
    });
    expectSdkType("AdvancedResearchCreateCompletionResponse", answer, "client/advanced-research/advanced-research");

    // The provider: one search per planned query, with the request's settings and the operator's key.
    const searches = search.requests.slice(before);
    expect(searches.map((s) => s.body.query).sort()).to.deep.equal([...queries].sort());
    for (const s of searches) {
      expect(s.body).to.deep.include({ numResults: 2, contents: { text: { maxCharacters: 500 } } });
      expect(s.headers["x-api-key"]).to.equal(config.builtinTools.search.apiKey);
    }
    // Depth: the three searches overlapped (each arrived before any was answered), so the search
    // phase took about one search's time, not three.
    const lastArrival = Math.max(...searches.map((s) => s.receivedAt));
    const firstAnswer = Math.min(...searches.map((s) => s.answeredAt!));
    expect(lastArrival).to.be.lessThan(firstAnswer);
    const searchPhase =
      Math.max(...searches.map((s) => s.answeredAt!)) - Math.min(...searches.map((s) => s.receivedAt));
    expect(searchPhase).to.be.lessThan(2 * LATENCY_MS);
    // …and so did the researchers' LLM calls (their steps' times, as stored).
    const steps: { model: string; started: number; finished: number }[] = await h.deps.ds.query(
      `SELECT s.model, extract(epoch FROM s.started_at) * 1000 AS started, extract(epoch FROM s.finished_at) * 1000 AS finished
         FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE r.job_id = $1 ORDER BY s.seq`,
      [answer.id],
    );
    const researchers = steps.filter((s) => s.model === "gpt-4o-mini");
    expect(researchers).to.have.length(3);
    expect(Math.max(...researchers.map((s) => Number(s.started)))).to.be.lessThan(
      Math.min(...researchers.map((s) => Number(s.finished))),
    );

    // The LLM calls: the plan, three researchers (any order), the report.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(5);
    expect(calls[0].model).to.equal("gpt-4o");
    expect(calls[0].max_tokens).to.equal(777);
    expect(calls[0].response_format.type).to.equal("json_schema");
    expect(lastUser(calls[0])).to.include(`Plan web searches for this research task:\n${marker}`);
    const workers = calls.slice(1, 4);
    for (const w of workers) expect(w.model).to.equal("gpt-4o-mini");
    for (const q of queries) {
      const worker = workers.find((w) => lastUser(w).includes(`Your query: ${q}\n`));
      expect(worker, q).to.not.equal(undefined);
      expect(lastUser(worker))
        .to.include(searchResultBody(q, 0).slice(0, 500))
        .and.include("URL: https://search.example/2");
    }
    expect(calls[4].model).to.equal("gpt-4o");
    for (const [i, q] of queries.entries()) expect(lastUser(calls[4])).to.include(`## Findings ${i + 1}: ${q}`);

    // The answer.
    expect(answer).to.include({
      name: "Beeswax",
      description: "A short study",
      sources: 6,
      characters_per_source: 500,
    });
    const outputs = answer.outputs as { role: string; content: string }[];
    expect(outputs.map((o) => o.role)).to.deep.equal([
      "Director-Agent",
      "Research-Worker-1",
      "Research-Worker-2",
      "Research-Worker-3",
      "Director-Agent",
    ]);
    expect(outputs[0].content).to.equal(`Research plan:\n${queries.map((q) => `- ${q}`).join("\n")}`);
    const usage = answer.usage as Record<string, number>;
    expect(usage).to.include({ searches: 3, search_cost: 0.12, agent_cost: 0.04 });
    const tokens =
      (usage.input_tokens * config.pricing.inputPerMTok + usage.output_tokens * config.pricing.outputPerMTok) / 1e6;
    expect(usage.total_cost).to.be.closeTo(tokens + 0.04 + 0.12, 1e-6);
    const [ledger] = await h.deps.ds.query(`SELECT kind, billed_cost FROM usage_ledger WHERE job_id = $1`, [answer.id]);
    expect(ledger).to.deep.equal({ kind: "advanced_research", billed_cost: usage.total_cost });
  });

  it("bills no search the provider did not answer: the researchers read the failure, the session pays tokens and agents", async () => {
    const marker = `research-failed-search-${RUN}`;
    const queries = [`${marker} one`, `${marker} two`];
    scriptPlan(marker, queries);
    search.set({ status: 503 });
    const before = search.requests.length;
    let res;
    try {
      res = await request(h.baseUrl, "POST", PATH, { key, body: { task: `${marker} question` } });
    } finally {
      search.set({ results: "echo" });
    }
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(search.requests.length - before, "both searches were made").to.equal(2);
    for (const worker of callsMentioning(h, marker).slice(1, 3))
      expect(lastUser(worker)).to.include("Search failed: the search provider answered 503.");
    const steps = await h.deps.ds.query(
      `SELECT s.model FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE r.job_id = $1 AND s.model = 'tool:auto_search'`,
      [res.body.id],
    );
    expect(steps).to.have.length(2);
    const usage = res.body.usage as Record<string, number>;
    // Director and two researchers made calls; neither search is billed.
    expect(usage).to.include({ searches: 0, search_cost: 0, agent_cost: 0.03 });
    const tokens =
      (usage.input_tokens * config.pricing.inputPerMTok + usage.output_tokens * config.pricing.outputPerMTok) / 1e6;
    expect(usage.total_cost).to.be.closeTo(tokens + 0.03, 1e-6);
    const [ledger] = await h.deps.ds.query(`SELECT billed_cost FROM usage_ledger WHERE job_id = $1`, [res.body.id]);
    expect(ledger.billed_cost).to.equal(usage.total_cost);
  });

  it("counts each search in the session's max_cost before making it: a search it cannot pay for is not made", async () => {
    const marker = `research-search-budget-${RUN}`;
    scriptPlan(marker, [`${marker} one`, `${marker} two`]);
    const before = search.requests.length;
    const maxCost = 0.03;
    const res = await request(h.baseUrl, "POST", PATH, {
      key,
      body: { task: `${marker} question`, budget: { max_cost: maxCost } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    expect(res.body.detail).to.equal(
      `The run reached its cost limit of $${maxCost}: a search ($${config.builtinTools.fees.auto_search}) does not fit in what is left`,
    );
    expect(search.requests.length, "no search was made").to.equal(before);
    const [run] = await h.deps.ds.query(`SELECT usage, error FROM runs WHERE job_id = $1`, [res.body.job_id]);
    expect(run.error.code).to.equal("BUDGET_EXCEEDED");
    // Only the plan was made and billed: its tokens and the director's charge.
    expect(run.usage).to.include({ searches: 0, search_cost: 0, agent_cost: config.pricing.perAgent });
    expect(callsMentioning(h, marker)).to.have.length(1);
    expect(run.usage.total_cost).to.be.at.most(maxCost);
  });

  it("runs max_loops rounds, each planning from the last report, with director_max_loops turns per report", async () => {
    const marker = `research-marker-2-${RUN}`;
    scriptPlan(marker, [`${marker} a`, `${marker} b`]);
    search.set({ results: "echo" });
    const res = await request(h.baseUrl, "POST", PATH, {
      key,
      body: { task: `${marker} deeper`, config: { max_loops: 2, director_max_loops: 2 } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    // Per round: plan, two researchers, a report of two turns.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(10);
    expect(lastUser(calls[0])).to.not.include("The report so far");
    const secondPlan = calls[5];
    expect(lastUser(secondPlan)).to.include(`Plan web searches for this research task:\n${marker}`);
    expect(lastUser(secondPlan)).to.include(`The report so far:\n${res.body.outputs[3].content}`);
    expect(res.body.outputs).to.have.length(8);
    expect(res.body.usage.searches).to.equal(4);
  });

  it("answers 202 with Prefer: respond-async, and GET /v1/jobs/{id} gives the answer", async () => {
    const marker = `research-marker-3-${RUN}`;
    scriptPlan(marker, [`${marker} only`]);
    const res = await request(h.baseUrl, "POST", PATH, {
      key,
      headers: { prefer: "respond-async" },
      body: { task: `${marker} later`, config: null },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const job = await eventually(async () => {
      const got = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
      return got.body.status === "success" ? got.body : undefined;
    });
    expect(job).to.include({
      id: res.body.job_id,
      sources: 5,
      characters_per_source: config.builtinTools.search.maxCharacters,
    });
  });

  it("refuses a config out of range with 422 naming each field", async () => {
    const res = await request(h.baseUrl, "POST", PATH, {
      key,
      body: { task: "x", config: { max_loops: 9, exa_search_num_results: 0 } },
    });
    expect(res.status).to.equal(422);
    const fields = res.body.detail.map((d: any) => d.loc.join("."));
    expect(fields).to.include.members(["body.config.max_loops", "body.config.exa_search_num_results"]);
  });

  it("refuses a batch over MAX_BATCH_SIZE with 400 before looking at its items, and an empty one", async () => {
    const batchPath = "/v1/advanced-research/batch/completions";
    const big = await request(h.baseUrl, "POST", batchPath, {
      key,
      body: { input_schemas: Array.from({ length: 101 }, () => ({ config: { max_loops: 9 } })) },
    });
    expect(big.status).to.equal(400);
    expect(big.body.code).to.equal("BATCH_TOO_LARGE");
    const empty = await request(h.baseUrl, "POST", batchPath, { key, body: { input_schemas: [] } });
    expect(empty.status).to.equal(400);
    expect(empty.body.code).to.equal("EMPTY_BATCH");
  });

  it("runs a batch of sessions in parallel and answers in request order (through the SDK)", async () => {
    const markers = [`research-batch-a-${RUN}`, `research-batch-b-${RUN}`];
    for (const m of markers) scriptPlan(m, [`${m} one`]);
    const answers = await swarmsClient(h.baseUrl, key).client.advancedResearch.batch.createCompletion({
      input_schemas: markers.map((m) => ({ task: `${m} question`, config: { name: m } })),
    });
    expectSdkType("BatchCreateCompletionResponse", answers, "client/advanced-research/batch");
    expect(answers.map((a) => a.name)).to.deep.equal(markers);
    for (const [i, a] of answers.entries()) {
      const outputs = a.outputs as { role: string; content: string }[];
      expect(outputs[0].content).to.equal(`Research plan:\n- ${markers[i]} one`);
    }
    const rows = await h.deps.ds.query(
      `SELECT p.kind AS parent, c.kind AS child, c.item_index FROM runs c JOIN runs p ON p.id = c.parent_id WHERE c.job_id = ANY($1) ORDER BY c.item_index`,
      [answers.map((a) => a.id)],
    );
    expect(rows).to.deep.equal([
      { parent: "advanced_research_batch", child: "advanced_research", item_index: 0 },
      { parent: "advanced_research_batch", child: "advanced_research", item_index: 1 },
    ]);
  });

  it("counts each session of a batch as one request against the rate limits", async () => {
    const fresh = await h.newKey();
    const markers = [`research-points-a-${RUN}`, `research-points-b-${RUN}`, `research-points-c-${RUN}`];
    for (const m of markers) scriptPlan(m, [`${m} one`]);
    const res = await request(h.baseUrl, "POST", "/v1/advanced-research/batch/completions", {
      key: fresh.key,
      body: { input_schemas: markers.map((m) => ({ task: `${m} question` })) },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.have.length(3);
    expect(res.headers.get("x-ratelimit-remaining-minute")).to.equal(
      String(config.rateLimits.tiers.free.perMinute - 3),
    );
  });

  it("keeps a session that failed while running in its slot of the batch, with its error", async () => {
    const marker = `research-fails-${RUN}`;
    scriptPlan(marker, [`${marker} one`]);
    const answers = await swarmsClient(h.baseUrl, key).client.advancedResearch.batch.createCompletion({
      input_schemas: [
        { task: `${marker} fine`, config: { name: "fine" } },
        // Too small a budget for even the plan: the session fails at its first call.
        { task: `${marker} starved`, config: { name: "starved" }, budget: { max_tokens: 1 } } as never,
      ],
    });
    expectSdkType("BatchCreateCompletionResponse", answers, "client/advanced-research/batch");
    expect(answers[0]).to.include({ name: "fine" });
    expect(answers[0].outputs).to.be.an("array");
    expect(answers[1]).to.include({ name: "starved", outputs: null, sources: null });
    expect((answers[1] as any).error).to.include({ code: "BUDGET_EXCEEDED" });
  });
});
