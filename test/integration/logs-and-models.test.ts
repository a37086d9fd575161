import { expect } from "chai";
import { modelAvailability } from "../../api/runs/run-models";
import { loadConfig } from "../../shared/config";
import { MODEL_CATALOG } from "../../shared/llm/model-catalog";
import { createKey, createRun } from "../helpers/factories";
import { harness, harnessWithKey, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

describe("GET /v1/models/available", () => {
  let h: Harness;
  let key: string;

  before(async () => ({ h, key } = await harnessWithKey()));

  it("lists the catalogue's model ids as strings, all available behind the gateway, with details", async () => {
    const res = await request(h.baseUrl, "GET", "/v1/models/available", { key });
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.models).to.be.an("array").that.is.not.empty;
    for (const id of res.body.models) expect(id).to.be.a("string");
    expect(res.body.count).to.equal(res.body.models.length);
    expect(res.body.models).to.deep.equal(MODEL_CATALOG.map((m) => m.id)); // LLM_BASE_URL is set in tests
    expect(res.body.models).to.include.members([
      "gpt-4.1",
      "gpt-4o-mini",
      "claude-sonnet-4-20250514",
      "groq/llama-3.3-70b-versatile",
    ]);
    expect(res.body.details).to.have.length(MODEL_CATALOG.length);
    expect(res.body.details[0]).to.deep.equal({ id: "gpt-4.1", provider: "openai", available: true });
    expect(res.headers.get("content-type")).to.match(/application\/json/);
  });

  it("needs an API key", async () => {
    const res = await request(h.baseUrl, "GET", "/v1/models/available");
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal("AUTHENTICATION_FAILED");
  });

  it("marks only the models of providers with a key as available when there is no gateway", () => {
    const details = modelAvailability(loadConfig({ OPENAI_API_KEY: "k", GROQ_API_KEY: "g" }));
    const available = new Set(details.filter((m) => m.available).map((m) => m.provider));
    expect([...available].sort()).to.deep.equal(["groq", "openai"]);
    expect(details.find((m) => m.id === "claude-sonnet-4-20250514")).to.deep.equal({
      id: "claude-sonnet-4-20250514",
      provider: "anthropic",
      available: false,
    });
    expect(modelAvailability(loadConfig({})).every((m) => !m.available)).to.equal(true);
  });
});

describe("GET /v1/swarm/logs", () => {
  let h: Harness;
  let first: { key: string; userId: string; keyId: string };
  let sibling: string; // a second key of the same user
  const firstJobs: string[] = []; // in creation order
  let siblingJob: string;
  let failedJob: string;

  async function complete(key: string, task: string, agentConfig: Record<string, unknown> = {}) {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Logger", ...agentConfig }, task },
    });
    expect(res.body.job_id, JSON.stringify(res.body)).to.be.a("string");
    return res;
  }

  before(async () => {
    h = await harness();
    first = await h.newKey();
    sibling = (await createKey(h.deps.ds, { userId: first.userId, name: "second" })).key;
    for (let i = 0; i < 3; i++) {
      const res = await complete(first.key, `log task ${i}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      firstJobs.push(res.body.job_id);
    }
    const failed = await complete(first.key, "log task failing", { llm_args: { sim_error: 400 } });
    expect(failed.status).to.equal(500);
    failedJob = failed.body.job_id;
    firstJobs.push(failedJob);
    siblingJob = (await complete(sibling, "sibling task")).body.job_id;
    await createRun(h.deps.ds, { kind: "agent", status: "succeeded" }); // another user's, under their own key
  });

  it("lists only the calling key's runs, newest first, in the documented shape", async () => {
    const res = await request(h.baseUrl, "GET", "/v1/swarm/logs", { key: first.key });
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal("success");
    expect(res.body.count).to.equal(4);
    expect(res.body.logs.map((l: any) => l.id)).to.deep.equal([...firstJobs].reverse());
    expect(res.body.logs.map((l: any) => l.id)).not.to.include(siblingJob);
    expect(new Date(res.body.timestamp).toISOString()).to.equal(res.body.timestamp);

    const created = res.body.logs.map((l: any) => Date.parse(l.created_at));
    expect(created).to.deep.equal([...created].sort((a, b) => b - a));

    const ok = res.body.logs.find((l: any) => l.id === firstJobs[2]);
    expect(ok).to.have.all.keys("id", "created_at", "category", "data");
    expect(ok.category).to.equal("agent");
    expect(new Date(ok.created_at).toISOString()).to.equal(ok.created_at);
    expect(ok.data).to.have.all.keys("status", "request", "output", "usage", "error", "execution_time", "finished_at");
    expect(ok.data.status).to.equal("success");
    expect(ok.data.request.task).to.equal("log task 2");
    expect(ok.data.request.agent_config.agent_name).to.equal("Logger");
    expect(ok.data.output).to.not.equal(null);
    expect(ok.data.usage.input_tokens).to.be.greaterThan(0);
    expect(ok.data.error).to.equal(null);
    expect(ok.data.execution_time).to.be.a("number").and.at.least(0);
    expect(new Date(ok.data.finished_at).toISOString()).to.equal(ok.data.finished_at);

    const bad = res.body.logs[0];
    expect(bad.id).to.equal(failedJob);
    expect(bad.data.status).to.equal("failed");
    expect(bad.data.error).to.be.an("object");
    expect(bad.data.error.code).to.be.a("string");
  });

  it("shows a sibling key of the same user only its own runs", async () => {
    const res = await request(h.baseUrl, "GET", "/v1/swarm/logs", { key: sibling });
    expect(res.status).to.equal(200);
    expect(res.body.logs.map((l: any) => l.id)).to.deep.equal([siblingJob]);
    expect(res.body.count).to.equal(1);
  });

  it("pages with limit and offset", async () => {
    const newestFirst = [...firstJobs].reverse();
    const page1 = await request(h.baseUrl, "GET", "/v1/swarm/logs?limit=2", { key: first.key });
    expect(page1.body.logs.map((l: any) => l.id)).to.deep.equal(newestFirst.slice(0, 2));
    expect(page1.body.count).to.equal(2);
    const page2 = await request(h.baseUrl, "GET", "/v1/swarm/logs?limit=2&offset=2", { key: first.key });
    expect(page2.body.logs.map((l: any) => l.id)).to.deep.equal(newestFirst.slice(2, 4));
    const past = await request(h.baseUrl, "GET", "/v1/swarm/logs?offset=10", { key: first.key });
    expect(past.status).to.equal(200);
    expect(past.body).to.include({ status: "success", count: 0 });
    expect(past.body.logs).to.deep.equal([]);
    const max = await request(h.baseUrl, "GET", "/v1/swarm/logs?limit=1000&unrelated=x", { key: first.key });
    expect(max.status).to.equal(200);
    expect(max.body.count).to.equal(4);
  });

  it("answers 422 with every bad query parameter located in the query", async () => {
    for (const query of ["limit=0", "limit=1001", "limit=abc", "limit=1.5"]) {
      const res = await request(h.baseUrl, "GET", `/v1/swarm/logs?${query}`, { key: first.key });
      expect(res.status, query).to.equal(422);
      expect(res.body).to.include({ code: "VALIDATION_ERROR", status_code: 422 });
      expect(res.body.detail).to.have.length(1);
      expect(res.body.detail[0].loc).to.deep.equal(["query", "limit"]);
      expect(res.body.detail[0]).to.have.all.keys("loc", "msg", "type");
    }
    const both = await request(h.baseUrl, "GET", "/v1/swarm/logs?limit=-1&offset=-1", { key: first.key });
    expect(both.status).to.equal(422);
    expect(both.body.detail.map((d: any) => d.loc)).to.deep.equal([
      ["query", "limit"],
      ["query", "offset"],
    ]);
  });

  it("needs an API key", async () => {
    const res = await request(h.baseUrl, "GET", "/v1/swarm/logs");
    expect(res.status).to.equal(401);
    expect(res.body).to.include({ code: "AUTHENTICATION_FAILED", status_code: 401 });
    const wrong = await request(h.baseUrl, "GET", "/v1/swarm/logs", { key: `sk-${"0".repeat(64)}` });
    expect(wrong.status).to.equal(401);
  });
});
