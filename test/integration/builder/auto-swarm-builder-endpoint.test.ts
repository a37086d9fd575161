import { expect } from "chai";
import type SwarmsClient from "../../vendor/swarms-ts/src/index";
import { harness, type Harness } from "../../helpers/harness";
import { eventually, request } from "../../helpers/http";
import { callerOf, callsMentioning, inputOf, postSwarm } from "../../helpers/swarm";
import { expectSdkType, swarmsClient } from "../../helpers/swarms-sdk";

const PATH = "/v1/auto-swarm-builder/completions";
const unique = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** A build_swarm decision as the Builder writes it (agents keyed by name). */
function design(marker: string, swarmType = "SequentialWorkflow", extra: Record<string, unknown> = {}) {
  return {
    name: `Team ${marker}`,
    description: `Researches and writes (${marker})`,
    swarm_type: swarmType,
    rules: "Cite sources.",
    agents: {
      [`Researcher-${marker}`]: { description: "Finds facts", system_prompt: `You research (${marker}).` },
      [`Writer-${marker}`]: { description: "Writes it up", system_prompt: `You write (${marker}).` },
    },
    ...extra,
  };
}

describe("POST /v1/auto-swarm-builder/completions", () => {
  let h: Harness;
  let key: string;
  let client: SwarmsClient;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    request(h.baseUrl, "POST", PATH, { key, body, headers });

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    client = swarmsClient(h.baseUrl, key);
  });
  afterEach(() => h.sim.clearScripts());

  it("GET /execution-types lists the three execution types, through the SDK too", async () => {
    const res = await request(h.baseUrl, "GET", "/v1/auto-swarm-builder/execution-types", { key });
    expect(res.status).to.equal(200);
    const types = ["return-agents", "return-swarm-router-config", "return-agents-objects"];
    expect(res.body).to.deep.equal(types);
    const listed = await client.client.autoSwarmBuilder.listExecutionTypes();
    expect(
      expectSdkType("AutoSwarmBuilderListExecutionTypesResponse", listed, "client/auto-swarm-builder"),
    ).to.deep.equal(types);
  });

  it("return-agents: one forced Builder call on the request's model and limit; the agents it designed, each a valid agent_config", async () => {
    const marker = unique("asb-agents");
    h.sim.script({ contains: marker, reply: JSON.stringify(design(marker)) });
    const res = await post({
      name: `Named ${marker}`,
      description: "A research team",
      task: `Report on beeswax ${marker}`,
      model_name: "gpt-4o-mini",
      max_tokens: 1234,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    expect(calls, "one Builder call").to.have.length(1);
    const [call] = calls;
    expect(callerOf(call)).to.equal("Builder");
    expect(call.model).to.equal("gpt-4o-mini");
    expect(call.max_tokens ?? call.max_completion_tokens).to.equal(1234);
    expect(call.tool_choice).to.deep.equal({ type: "function", function: { name: "build_swarm" } });
    const enumTypes: string[] = call.tools[0].function.parameters.properties.swarm_type.enum;
    expect(enumTypes).to.include("SequentialWorkflow").and.not.include("AutoSwarmBuilder").and.not.include("auto");
    expect(inputOf(call))
      .to.include(`Report on beeswax ${marker}`)
      .and.include(`The swarm's name: Named ${marker}`)
      .and.include("What the swarm is for:\nA research team");

    expect(res.body).to.include({ success: true, type: "return-agents" });
    expect(res.body.job_id).to.be.a("string");
    expect(Date.parse(res.body.timestamp)).to.be.a("number").and.not.NaN;
    expect(res.body.usage.total_tokens).to.be.above(0);
    expect(res.body.usage.billing_info.cost_breakdown.num_agents).to.equal(1);
    expect(res.body.outputs).to.deep.equal({
      agents: [
        {
          agent_name: `Researcher-${marker}`,
          description: "Finds facts",
          system_prompt: `You research (${marker}).`,
          model_name: "gpt-4o-mini",
          auto_generate_prompt: false,
          max_tokens: 1234,
          temperature: 0.5, // the agents' default, which they run at
          role: "worker",
          max_loops: 1,
        },
        {
          agent_name: `Writer-${marker}`,
          description: "Writes it up",
          system_prompt: `You write (${marker}).`,
          model_name: "gpt-4o-mini",
          auto_generate_prompt: false,
          max_tokens: 1234,
          temperature: 0.5, // the agents' default, which they run at
          role: "worker",
          max_loops: 1,
        },
      ],
    });
    // A designed agent is an agent_config POST /v1/agent/completions runs as it stands.
    const run = await request(h.baseUrl, "POST", "/v1/agent/completions", {
      key,
      body: { agent_config: res.body.outputs.agents[0], task: `Go ${marker}` },
    });
    expect(run.status, JSON.stringify(run.body)).to.equal(200);
    // Stored as an auto_swarm_builder run: GET /v1/jobs/{id} answers the same body.
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
    expect(job.body).to.deep.include({ outputs: res.body.outputs, type: "return-agents", status: "success" });
  });

  it("return-swarm-router-config: a whole swarm body (name, description, type, agents, rules, task, max_loops) that POST /v1/swarm/completions runs", async () => {
    const marker = unique("asb-config");
    h.sim.script({ contains: marker, reply: JSON.stringify(design(marker)) });
    const task = `Report on propolis ${marker}`;
    const res = await post({ task, execution_type: "return-swarm-router-config", max_loops: 2 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const config = res.body.outputs;
    expect(config).to.deep.include({
      name: `Team ${marker}`,
      description: `Researches and writes (${marker})`,
      swarm_type: "SequentialWorkflow",
      rules: "Cite sources.",
      task,
      max_loops: 2,
    });
    expect(config).to.not.have.property("rearrange_flow");
    expect(config.agents.map((a: any) => a.agent_name)).to.deep.equal([`Researcher-${marker}`, `Writer-${marker}`]);

    const from = h.sim.journal.length;
    const ran = await postSwarm(h, key, config);
    expect(ran.status, JSON.stringify(ran.body)).to.equal(200);
    expect(ran.body.swarm_type).to.equal("SequentialWorkflow");
    const callers = h.sim.journal.slice(from).map((e: any) => callerOf(e.body));
    expect(callers, "2 agents × 2 loops, in order").to.deep.equal([
      `Researcher-${marker}`,
      `Writer-${marker}`,
      `Researcher-${marker}`,
      `Writer-${marker}`,
    ]);
    const system = (h.sim.journal[from] as any).body.messages[0].content;
    expect(system).to.include(`You research (${marker}).`).and.include("Rules: Cite sources.");
  });

  it("return-agents-objects: every field the service runs each agent with, plus where it sits in the swarm", async () => {
    const marker = unique("asb-objects");
    h.sim.script({ contains: marker, reply: JSON.stringify(design(marker, "ConcurrentWorkflow")) });
    const res = await post({ task: `Objects ${marker}`, execution_type: "return-agents-objects" });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const objects = res.body.outputs.agent_objects;
    expect(objects).to.have.length(2);
    expect(objects[1]).to.deep.include({
      agent_name: `Writer-${marker}`,
      max_tokens: 8000,
      streaming_on: false,
      dynamic_temperature_enabled: true,
      reasoning_effort: "low",
      publish_to_marketplace: false,
      metadata: { swarm_name: `Team ${marker}`, swarm_type: "ConcurrentWorkflow", position: 1, team_size: 2 },
    });
  });

  it("an invalid design is repaired: the second call quotes the problems, the answer is the repaired design", async () => {
    const marker = unique("asb-repair");
    const invalid = design(marker, "AgentRearrange", { rearrange_flow: `Researcher-${marker} -> Ghost-${marker}` });
    h.sim.script({ contains: marker, reply: JSON.stringify(invalid) });
    // Only the repair call holds the quoted problem (in its tool message): it gets a valid design.
    const fixed = design(marker, "AgentRearrange", { rearrange_flow: `Researcher-${marker} -> Writer-${marker}` });
    h.sim.script({ contains: `not in the swarm: Ghost-${marker}`, reply: JSON.stringify(fixed) });
    const res = await post({ task: `Repair ${marker}`, execution_type: "return-swarm-router-config" });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const calls = callsMentioning(h, marker);
    expect(calls.map(callerOf)).to.deep.equal(["Builder", "Builder"]);
    const repair = calls[1];
    expect(repair.messages.map((m: any) => m.role)).to.deep.equal(["system", "user", "assistant", "tool"]);
    expect(JSON.parse(repair.messages[2].tool_calls[0].function.arguments)).to.deep.equal(invalid);
    expect(repair.messages[3].content)
      .to.include("That build_swarm call is invalid")
      .and.include(`rearrange_flow names agents that are not in the swarm: Ghost-${marker}`);
    expect(res.body.outputs).to.deep.include({
      swarm_type: "AgentRearrange",
      rearrange_flow: `Researcher-${marker} -> Writer-${marker}`,
    });
    expect(res.body.usage.total_tokens).to.be.above(0);
  });

  it("a design still invalid after its repair fails the run naming the Builder and every problem", async () => {
    const marker = unique("asb-fail");
    const bad = { ...design(marker, "DebateWithJudge"), name: 7 };
    h.sim.script({ contains: marker, reply: JSON.stringify(bad) });
    const res = await post({ task: `Fail ${marker}` });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    expect(res.body).to.include({ code: "DECISION_INVALID", agent: "Builder" });
    expect(res.body.detail).to.include("'name' must be a string").and.include("after one repair attempt");
    expect(callsMentioning(h, marker).map(callerOf)).to.deep.equal(["Builder", "Builder"]);

    const marker2 = unique("asb-fail-rules");
    h.sim.script({ contains: marker2, reply: JSON.stringify(design(marker2, "DebateWithJudge")) });
    const res2 = await post({ task: `Fail ${marker2}` });
    expect(res2.status).to.equal(500);
    expect(res2.body.detail).to.include("DebateWithJudge needs exactly 3 agents");
  });

  it("refuses bad input with every problem at once (422), before anything runs", async () => {
    const res = await post({ execution_type: "return-everything", max_tokens: 0, max_loops: "many" });
    expect(res.status).to.equal(422);
    const locs = res.body.detail.map((d: any) => d.loc.join("."));
    expect(locs).to.include.members(["body.task", "body.execution_type", "body.max_tokens", "body.max_loops"]);
    const marker = unique("asb-blank");
    const blank = await post({ task: "   ", name: marker });
    expect(blank.status).to.equal(422);
    expect(blank.body.detail.map((d: any) => d.loc.join("."))).to.deep.equal(["body.task"]);
    expect(callsMentioning(h, marker)).to.have.length(0);
  });

  it("nulls read as unset (what the SDK may send): the defaults apply", async () => {
    const marker = unique("asb-nulls");
    h.sim.script({ contains: marker, reply: JSON.stringify(design(marker)) });
    const res = await post({ task: marker, name: null, model_name: null, max_tokens: null, execution_type: null });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.type).to.equal("return-agents");
    expect(res.body.outputs.agents[0].max_tokens).to.equal(8000);
  });

  it("without max_tokens, a model that allows fewer than 8000 output tokens gets its own limit, not a default it refuses", async () => {
    const marker = unique("asb-small");
    h.sim.script({ contains: marker, reply: JSON.stringify(design(marker)) });
    const res = await post({ task: marker, model_name: "gpt-3.5-turbo" });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [call] = callsMentioning(h, marker);
    expect([callerOf(call), call.max_tokens]).to.deep.equal(["Builder", 4096]);
    expect(res.body.outputs.agents.map((a: any) => a.max_tokens)).to.deep.equal([4096, 4096]);
  });

  it("async mode: Prefer respond-async answers 202, and GET /v1/jobs/{id} gives the result once done", async () => {
    const marker = unique("asb-async");
    h.sim.script({ contains: marker, reply: JSON.stringify(design(marker)) });
    const res = await post({ task: marker, execution_type: "return-agents" }, { prefer: "respond-async" });
    expect(res.status).to.equal(202);
    const jobId = res.body.job_id;
    const done = await eventually(
      async () => {
        const job = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
        return job.body.status === "success" ? job.body : undefined;
      },
      15_000,
      250,
    );
    expect(done).to.include({ success: true, job_id: jobId, type: "return-agents" });
    expect(done.outputs.agents).to.have.length(2);
  });

  it("idempotency: the same Idempotency-Key and body answer the first run again, without another Builder call", async () => {
    const marker = unique("asb-idem");
    h.sim.script({ contains: marker, reply: JSON.stringify(design(marker)) });
    const headers = { "idempotency-key": marker };
    const first = await post({ task: marker }, headers);
    const again = await post({ task: marker }, headers);
    expect(first.status).to.equal(200);
    expect(again.status).to.equal(200);
    expect(again.body.job_id).to.equal(first.body.job_id);
    expect(callsMentioning(h, marker)).to.have.length(1);
  });

  it("the SDK's createCompletion answers its own AutoSwarmBuilderCreateCompletionResponse type", async () => {
    const marker = unique("asb-sdk");
    h.sim.script({ contains: marker, reply: JSON.stringify(design(marker)) });
    const res = await client.client.autoSwarmBuilder.createCompletion({
      name: "SDK team",
      task: `SDK ${marker}`,
      execution_type: "return-swarm-router-config",
      model_name: "gpt-4o-mini",
      max_loops: 1,
    });
    expectSdkType("AutoSwarmBuilderCreateCompletionResponse", res, "client/auto-swarm-builder");
    expect(res.success).to.equal(true);
    expect(res.outputs).to.deep.include({ name: "SDK team", swarm_type: "SequentialWorkflow" });
  });
});
