import { expect } from "chai";
import { agentSpecSchema } from "../../../api/schemas/agent-spec.schema";
import { agentProblem } from "../../../workers/swarms/builder/design-agent";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { eventually, request } from "../../helpers/http";
import { callerOf, callsMentioning, inputOf } from "../../helpers/swarm";

const PATH = "/v1/agents/auto-generate";
const unique = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** A generate_agent decision as the Builder writes it. */
const written = (marker: string, extra: Record<string, unknown> = {}) => ({
  agent_name: `Contract Reviewer ${marker}`,
  description: "Finds hidden fees in supplier contracts",
  system_prompt: `You review contracts (${marker}) and list every fee with its clause.`,
  temperature: 0.2,
  ...extra,
});

describe("POST /v1/agents/auto-generate", () => {
  let h: Harness;
  let key: string;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    request(h.baseUrl, "POST", PATH, { key, body, headers });

  before(async () => ({ h, key } = await harnessWithKey()));
  afterEach(() => h.sim.clearScripts());

  it("{task} → one forced Builder call → an agent_config that POST /v1/agent/completions runs as it stands", async () => {
    const marker = unique("gen");
    h.sim.script({ contains: marker, reply: JSON.stringify(written(marker)) });
    const res = await post({ task: `Review supplier contracts ${marker}` });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(1);
    expect(callerOf(calls[0])).to.equal("Builder");
    expect(calls[0].tool_choice).to.deep.equal({ type: "function", function: { name: "generate_agent" } });
    expect(inputOf(calls[0])).to.include(`Review supplier contracts ${marker}`);
    expect(calls[0].max_tokens ?? calls[0].max_completion_tokens).to.equal(8192);

    expect(res.body).to.include({ success: true });
    expect(res.body.job_id).to.be.a("string");
    expect(res.body.usage.total_tokens).to.be.above(0);
    const config = res.body.agent_config;
    expect(config).to.deep.equal({
      agent_name: `Contract Reviewer ${marker}`,
      description: "Finds hidden fees in supplier contracts",
      system_prompt: `You review contracts (${marker}) and list every fee with its clause.`,
      model_name: calls[0].model,
      auto_generate_prompt: false,
      max_tokens: 8192,
      temperature: 0.2,
      role: "worker",
      max_loops: 1,
    });
    expect(agentSpecSchema.validate(config).error).to.equal(undefined);

    const from = h.sim.journal.length;
    const run = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: config, task: `Check this one ${marker}` },
    });
    expect(run.status, JSON.stringify(run.body)).to.equal(200);
    const ran = (h.sim.journal[from] as any).body;
    expect(ran.messages[0].content).to.include(`You review contracts (${marker})`);
    expect(ran.temperature).to.equal(0.2);

    const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
    expect(job.body).to.deep.include({ agent_config: config, status: "success" });
  });

  it("without max_tokens, a model that allows fewer than 8192 output tokens gets its own limit, not a default it refuses", async () => {
    const marker = unique("gen-small");
    h.sim.script({ contains: marker, reply: JSON.stringify(written(marker)) });
    const res = await post({ task: `Review supplier contracts ${marker}`, model_name: "gpt-3.5-turbo" });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [call] = callsMentioning(h, marker);
    expect([callerOf(call), call.max_tokens]).to.deep.equal(["Builder", 4096]);
    expect(res.body.agent_config).to.include({ model_name: "gpt-3.5-turbo", max_tokens: 4096 });
  });

  it("an invalid agent is repaired once, the problem quoted; still invalid, the run fails naming the Builder", async () => {
    const marker = unique("gen-repair");
    const bad = written(marker, { system_prompt: "   ", temperature: 3 });
    h.sim.script({ contains: marker, reply: JSON.stringify(bad) });
    h.sim.script({ contains: "'system_prompt' must not be empty", reply: JSON.stringify(written(marker)) });
    const res = await post({ task: `Repair ${marker}`, model_name: "gpt-4o-mini", max_tokens: 900 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(["Builder", "Builder"]);
    expect(calls.map((c) => c.model)).to.deep.equal(["gpt-4o-mini", "gpt-4o-mini"]);
    expect(calls[1].messages[3].role).to.equal("tool");
    expect(calls[1].messages[3].content)
      .to.include("'system_prompt' must not be empty")
      .and.include("'temperature' must be a number from 0 to 1");
    expect(res.body.agent_config).to.include({ model_name: "gpt-4o-mini", max_tokens: 900, temperature: 0.2 });
    h.sim.clearScripts();

    const marker2 = unique("gen-fail");
    h.sim.script({ contains: marker2, reply: JSON.stringify(written(marker2, { agent_name: "" })) });
    const failed = await post({ task: `Fail ${marker2}` });
    expect(failed.status).to.equal(500);
    expect(failed.body).to.include({ code: "DECISION_INVALID", agent: "Builder" });
    expect(failed.body.detail).to.include("'agent_name' must not be empty");
    expect(callsMentioning(h, marker2)).to.have.length(2);
  });

  it("422 without a task or with a bad field (all at once); 202 in async mode, the result at GET /v1/jobs/{id}", async () => {
    const bad = await post({ model_name: "", max_tokens: -1 });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail.map((d: any) => d.loc.join("."))).to.include.members([
      "body.task",
      "body.model_name",
      "body.max_tokens",
    ]);

    const marker = unique("gen-async");
    h.sim.script({ contains: marker, reply: JSON.stringify(written(marker)) });
    const res = await post({ task: marker }, { prefer: "respond-async" });
    expect(res.status).to.equal(202);
    const done = await eventually(
      async () => {
        const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
        return job.body.status === "success" ? job.body : undefined;
      },
      15_000,
      250,
    );
    expect(done.agent_config.agent_name).to.equal(`Contract Reviewer ${marker}`);
  });

  it("agentProblem checks what the agent schema would (unit)", () => {
    expect(agentProblem(written("x"))).to.equal(null);
    expect(agentProblem({ ...written("x"), temperature: undefined })).to.equal(null);
    expect(agentProblem([])).to.include("must be an object");
    expect(agentProblem({ agent_name: "a".repeat(201), description: 1, system_prompt: "p" }))
      .to.include("'agent_name' must be at most 200 characters")
      .and.include("'description' must be a string");
  });
});
