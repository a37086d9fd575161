import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";

/**
 * The hosted fields that hand a provider options of their own (`director_settings`, beside the
 * agents' `llm_args`) follow the same rule as `llm_args`: a credential-like value reaches the
 * provider and nothing else: not the stored request, a job read, the logs or any answer.
 */
describe("hosted fields' provider credentials stay sealed", () => {
  let h: Harness;
  let a: { key: string; userId: string };
  const tag = randomUUID().slice(0, 8);
  const secrets = { key: `sk-director-${tag}`, header: `org-director-${tag}` };

  before(async function () {
    this.timeout(60_000);
    h = await harness();
    a = await h.newKey();
  });

  it("seals director_settings' credentials like llm_args': the director's provider gets them, no read-back shows them", async function () {
    this.timeout(30_000);
    const worker = (name: string) => ({ agent_name: name, model_name: "gpt-4o-mini", llm_args: { sim_reply: "done" } });
    const run = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key: a.key,
      body: {
        swarm_type: "HierarchicalSwarm",
        task: `direct ${tag}`,
        agents: [worker("W1"), worker("W2")],
        director_settings: { top_p: 0.5, metadata: { api_key: secrets.key, org_header: secrets.header } },
      },
    });
    expect(run.status, JSON.stringify(run.body)).to.equal(200);

    const director = h.sim.journal.filter((e: any) => JSON.stringify(e.body).includes(tag) && e.body.top_p === 0.5);
    expect(director.length, "the director's calls").to.be.greaterThan(0);
    for (const call of director as any[]) {
      expect(call.body.metadata).to.deep.equal({ api_key: secrets.key, org_header: secrets.header });
    }

    const logs = await request(h.baseUrl, "GET", "/v1/swarm/logs", { key: a.key });
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${run.body.job_id}`, { key: a.key });
    const rows: { request: string; sealed: string | null }[] = await h.deps.ds.query(
      `SELECT request::text AS request, sealed_secrets::text AS sealed FROM runs WHERE id = $1`,
      [run.body.job_id],
    );
    const steps: { row: string }[] = await h.deps.ds.query(
      `SELECT to_jsonb(s)::text AS row FROM run_steps s WHERE run_id = $1`,
      [run.body.job_id],
    );
    expect(steps.length, "the run's steps").to.be.greaterThan(0);
    const readBack = {
      steps: steps.map((s) => s.row),
      answer: run.body,
      logs: logs.body,
      job: job.body,
      stored: rows[0].request,
      sealed: rows[0].sealed,
    };
    for (const [where, value] of Object.entries(readBack))
      for (const secret of Object.values(secrets))
        expect(JSON.stringify(value), `${where} holds ${secret}`).to.not.include(secret);
    expect(JSON.parse(rows[0].request).director_settings).to.deep.equal({
      top_p: 0.5,
      metadata: { api_key: "[redacted]", org_header: "[redacted]" },
    });
  });

  it("refuses provider options that name where the call goes (api_base, base_url…), in every options field, before any run", async () => {
    const worker = (name: string, llmArgs: Record<string, unknown> = {}) => ({
      agent_name: name,
      model_name: "gpt-4o-mini",
      llm_args: { sim_reply: "done", ...llmArgs },
    });
    const cases: [string, unknown, (string | number)[]][] = [
      [
        "/v1/swarm/completions",
        {
          swarm_type: "HierarchicalSwarm",
          task: "t",
          agents: [worker("W1"), worker("W2")],
          director_settings: { api_base: "http://10.0.0.1/v1" },
        },
        ["body", "director_settings", "api_base"],
      ],
      [
        "/v1/agent/completions",
        { agent_config: worker("A", { extra_body: { baseURL: "http://169.254.169.254/" } }), task: "t" },
        ["body", "agent_config", "llm_args", "extra_body"],
      ],
      [
        "/v1/reasoning-agent/completions",
        { task: "t", llm_args: { Base_Url: "http://127.0.0.1:6379" } },
        ["body", "llm_args", "Base_Url"],
      ],
      [
        "/v1/reasoning-agent/completions",
        { task: "t", llm_args: { extra_body: { metadata: { api_base: "http://10.0.0.1/v1" } } } },
        ["body", "llm_args", "extra_body"],
      ],
      [
        "/v1/reasoning-agent/completions",
        { task: "t", llm_args: { extra_body: { properties: { base_url: "http://10.0.0.1/v1" } } } },
        ["body", "llm_args", "extra_body"],
      ],
      [
        "/v1/graph-workflow/completions",
        { agents: [worker("G", { azure_endpoint: "http://10.1.2.3" })], task: "t" },
        ["body", "agents", 0, "llm_args", "azure_endpoint"],
      ],
    ];
    const before = h.sim.journal.length;
    for (const [path, body, loc] of cases) {
      const res = await request(h.baseUrl, "POST", path, { key: a.key, body });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(422);
      expect(
        res.body.detail.map((d: { loc: unknown }) => d.loc),
        path,
      ).to.deep.include(loc);
    }
    expect(h.sim.journal.length, "no LLM call").to.equal(before);
  });

  it("takes a JSON schema's property names and metadata labels for names, not for options, and sends them on", async () => {
    const schema = {
      type: "object",
      properties: { base_url: { type: "string" }, endpoint: { type: "object", properties: { api_base: {} } } },
      $defs: { azure_endpoint: { type: "string" } },
    };
    const res = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key: a.key,
      body: {
        agent_config: {
          agent_name: "A",
          model_name: "gpt-4o-mini",
          llm_args: {
            sim_reply: '{"base_url": "https://example.com"}',
            response_format: { type: "json_schema", json_schema: { name: "site", schema } },
            metadata: { endpoint: "checkout" },
          },
        },
        task: "Which site?",
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const call = h.sim.journal.at(-1)! as { body: any };
    expect(call.body.response_format.json_schema.schema).to.deep.equal(schema);
    expect(call.body.metadata).to.deep.equal({ endpoint: "checkout" });
  });
});
