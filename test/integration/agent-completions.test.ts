import { expect } from "chai";
import { findRun } from "../../shared/db/runs/run-rows";
import { sql } from "../../shared/db/sql";
import { roundCost } from "../../shared/llm/pricing";
import { REVIEW_PROMPT } from "../../workers/agents/messages";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { entriesMentioning } from "../helpers/swarm";

const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("POST /v1/agent/completions", () => {
  let h: Harness;
  let key: string;

  before(async () => ({ h, key } = await harnessWithKey()));

  it("runs one agent through the queue and answers with the documented fields", async () => {
    const marker = `honey-${Date.now()}`;
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: {
          agent_name: "Researcher",
          description: "Finds facts",
          system_prompt: "You are concise.",
          temperature: 0.3,
          max_tokens: 300,
        },
        task: `Name three uses of ${marker}.`,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include.all.keys(
      "job_id",
      "success",
      "name",
      "description",
      "temperature",
      "outputs",
      "usage",
      "timestamp",
    );
    expect(res.body).to.include({ success: true, name: "Researcher", description: "Finds facts", temperature: 0.3 });
    expect(res.body.outputs).to.have.length(1);
    expect(res.body.outputs[0].role).to.equal("Researcher");
    expect(res.body.outputs[0].content)
      .to.be.a("string")
      .and.match(/simulated/i);
    expect(new Date(res.body.timestamp).toISOString()).to.equal(res.body.timestamp);

    const calls = entriesMentioning(h, marker);
    expect(calls).to.have.length(1);
    const sent = calls[0].body;
    expect(sent.model).to.equal("gpt-4.1");
    expect(sent.messages[0]).to.deep.equal({ role: "system", content: "You are concise." });
    expect(sent.messages[1]).to.deep.equal({ role: "user", content: `Name three uses of ${marker}.` });
    expect(sent.max_tokens).to.equal(300);
    expect(sent.temperature).to.equal(0.3);

    const run = await findRun(h.deps.ds, res.body.job_id);
    expect(run?.status).to.equal("succeeded");
    expect(run?.kind).to.equal("agent");
  });

  it("reports the provider's token counts and prices them with the pricing table", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Viewer" }, task: "Describe this image.", img: PNG_1PX },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { usage } = res.body;
    expect(usage.input_tokens).to.be.greaterThan(0);
    expect(usage.output_tokens).to.be.greaterThan(0);
    expect(usage.total_tokens).to.equal(usage.input_tokens + usage.output_tokens);
    expect(usage.img_cost).to.equal(0.25);
    expect(usage.mcp_cost).to.equal(0);
    const expected = roundCost((usage.input_tokens * 6.5) / 1e6 + (usage.output_tokens * 18.5) / 1e6 + 0.25 + 0.01);
    expect(usage.total_cost).to.equal(expected);

    const steps = await h.deps.ds.query(
      "SELECT input_tokens, output_tokens, provider, upstream_cost FROM run_steps WHERE run_id = $1",
      [res.body.job_id],
    );
    expect(steps).to.have.length(1);
    expect(steps[0]).to.include({
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      provider: "gateway",
    });
    expect(steps[0].upstream_cost).to.be.greaterThan(0); // gpt-4.1's upstream price, recorded for operators
    const ledger = await h.deps.ds.query(
      "SELECT input_tokens, output_tokens, billed_cost FROM usage_ledger WHERE run_id = $1",
      [res.body.job_id],
    );
    expect(ledger).to.deep.equal([
      { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, billed_cost: usage.total_cost },
    ]);
    const sentImage = (h.sim.journal.at(-1)!.body as any).messages.at(-1).content[1];
    expect(sentImage).to.deep.equal({ type: "image_url", image_url: { url: `data:image/png;base64,${PNG_1PX}` } });
  });

  it("runs max_loops review turns, keeping earlier answers in context, and outputs the last answer", async () => {
    const marker = `loops-${Date.now()}`;
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Editor", max_loops: 3 }, task: `Write a slogan about ${marker}.` },
    });
    expect(res.status).to.equal(200);
    const calls = entriesMentioning(h, marker);
    expect(calls).to.have.length(3);
    const last = calls[2].body.messages;
    expect(last.filter((m: any) => m.role === "assistant")).to.have.length(2);
    expect(last.at(-1)).to.deep.equal({ role: "user", content: REVIEW_PROMPT });
    const steps = await h.deps.ds.query("SELECT seq, output FROM run_steps WHERE run_id = $1 ORDER BY seq", [
      res.body.job_id,
    ]);
    expect(steps.map((s: any) => s.seq)).to.deep.equal([0, 1, 2]);
    expect(res.body.outputs).to.deep.equal([{ role: "Editor", content: steps[2].output.content }]);
  });

  it("passes llm_args to the provider, and refuses the ones that would replace the model or messages", async () => {
    const marker = `args-${Date.now()}`;
    const refused = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { llm_args: { top_p: 0.5, model: "evil", messages: [] } }, task: marker },
    });
    expect(refused.status).to.equal(422);
    expect(refused.body.detail.map((d: any) => d.loc.join("."))).to.include.members([
      "body.agent_config.llm_args.model",
      "body.agent_config.llm_args.messages",
    ]);
    expect(entriesMentioning(h, marker)).to.deep.equal([]);
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { llm_args: { top_p: 0.5, metadata: { api_key: "provider-secret-123" } } }, task: marker },
    });
    expect(res.status).to.equal(200);
    const [call] = entriesMentioning(h, marker);
    expect(call.body.top_p).to.equal(0.5);
    expect(call.body.metadata.api_key).to.equal("provider-secret-123"); // put back only for the provider call
    const [stored] = await h.deps.ds.query("SELECT request::text AS request FROM runs WHERE id = $1", [
      res.body.job_id,
    ]);
    expect(stored.request).to.not.include("provider-secret-123");
    expect(call.body.model).to.equal("gpt-4.1");
    expect(call.body.messages.at(-1).content).to.equal(marker);
  });

  it("retries a provider 5xx and succeeds; a permanent provider error fails the run with 500 LLM_CALL_FAILED", async () => {
    const retried = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: {
        agent_config: { agent_name: "Flaky", llm_args: { sim_error: 503, sim_error_times: 1 } },
        task: `retry-${Date.now()}`,
      },
    });
    expect(retried.status, JSON.stringify(retried.body)).to.equal(200);

    const failed = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: { agent_name: "Broken", llm_args: { sim_error: 400 } }, task: "fail please" },
    });
    expect(failed.status).to.equal(500);
    expect(failed.body).to.include({ code: "LLM_CALL_FAILED", status_code: 500, agent: "Broken" });
    expect(failed.body.job_id).to.be.a("string");
    expect(failed.body.detail).to.match(/HTTP 400/);
    const run = await findRun(h.deps.ds, failed.body.job_id);
    expect(run?.status).to.equal("failed");
  });

  it("answers 504 with the job id when the wait ends first, and GET /v1/jobs/{id} returns the result later", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      headers: { prefer: "wait=0.3" },
      body: { agent_config: { agent_name: "Slow", llm_args: { sim_latency_ms: 1_500 } }, task: "take your time" },
    });
    expect(res.status).to.equal(504);
    expect(res.body).to.include({ code: "RUN_TIMEOUT", status_code: 504 });
    const jobId = res.body.job_id;
    const done = await eventually(async () => {
      const job = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
      expect(job.status).to.equal(200);
      return job.body.status === "success" ? job.body : undefined;
    });
    expect(done).to.include({ job_id: jobId, success: true, name: "Slow" });
    expect(done.outputs[0].content).to.match(/simulated/i);
  });

  it("answers 503, not a 504 naming a job that does not exist, when the run's row was lost while the caller waited", async () => {
    const { key: ownKey, userId } = await h.newKey();
    const pending = request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: ownKey,
      headers: { prefer: "wait=1" },
      body: { agent_config: { agent_name: "Lost", llm_args: { sim_latency_ms: 3_000 } }, task: "vanish" },
    });
    // What a Postgres crash does to an insert that had not reached the disk yet.
    await eventually(async () => {
      const deleted = await sql(h.deps.ds, "DELETE FROM runs WHERE user_id = $1 RETURNING id", [userId]);
      return deleted.length > 0 ? deleted : undefined;
    });
    const res = await pending;
    expect(res.status).to.equal(503);
    expect(res.body.detail).to.match(/lost in a database restart/);
    expect(res.body).to.not.have.property("job_id");
  });

  it("answers 202 at once with Prefer: respond-async", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      headers: { prefer: "respond-async" },
      body: { agent_config: { agent_name: "Async", llm_args: { sim_latency_ms: 300 } }, task: "later" },
    });
    expect(res.status).to.equal(202);
    expect(res.body).to.include({ status: "queued" });
    expect(res.headers.get("location")).to.equal(`/v1/jobs/${res.body.job_id}`);
    const first = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
    expect(["queued", "running", "success"]).to.include(first.body.status);
    const done = await eventually(async () => {
      const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
      return job.body.status === "success" ? job.body : undefined;
    });
    expect(done.name).to.equal("Async");
  });

  it("shows a job only to its owner", async () => {
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: {}, task: "mine" },
    });
    const other = await h.newKey();
    const peek = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key: other.key });
    expect(peek.status).to.equal(404);
    expect(peek.body.code).to.equal("NOT_FOUND");
  });
});
