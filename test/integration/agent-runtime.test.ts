import { expect } from "chai";
import { findRun } from "../../shared/db/runs/run-rows";
import type { AgentRun } from "../../shared/db/entities/run.entity";
import { HANDOFF_TOOL } from "../../workers/agents/handoffs";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { callsMentioning } from "../helpers/swarm";
import { dataUrl, PNG_1PX } from "../helpers/images";
import { startImageServer, type ImageServer } from "../helpers/image-server";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";

const AGENT_COMPLETIONS = "/v1/agent/completions";

describe("the agent runtime (through POST /v1/agent/completions)", () => {
  let h: Harness;
  let key: string;
  let mcp: McpTestServer;
  let images: ImageServer;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    mcp = await startMcpTestServer({ requireToken: "mcp-secret", pageSize: 3 });
    images = await startImageServer(); // image URLs are fetched by the worker: an allowed local server
  });
  after(async () => Promise.all([mcp.close(), images.close()]));

  const calls = (marker: string) => callsMentioning(h, marker);

  it("sends history before the task, in order, and image parts with the task (a URL as its data)", async () => {
    const marker = `hist-${Date.now()}`;
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { agent_name: "H", system_prompt: "sys" },
        history: [
          { role: "user", content: "first question" },
          { role: "assistant", content: "first answer" },
        ],
        task: marker,
        imgs: [`${images.url}/a.png`, "data:image/png;base64,iVBORw0KGgo="],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [sent] = calls(marker);
    expect(sent.messages.map((m: any) => m.role)).to.deep.equal(["system", "user", "assistant", "user"]);
    expect(sent.messages[1].content).to.equal("first question");
    expect(sent.messages[3].content).to.deep.equal([
      { type: "text", text: marker },
      { type: "image_url", image_url: { url: dataUrl(PNG_1PX) } },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
    ]);
    expect(res.body.usage.img_cost).to.equal(0.5);
  });

  it("offers client function tools and ends the turn with the tool-call list", async () => {
    const marker = `tools-${Date.now()}`;
    const weather = {
      type: "function",
      function: {
        name: "get_weather",
        description: "Weather",
        parameters: {
          type: "object",
          properties: { city: { type: "string", enum: ["Oslo", "Lima"] } },
          required: ["city"],
        },
      },
    };
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { agent_name: "T", tools_list_dictionary: [weather] }, task: marker },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const sent = calls(marker);
    expect(sent).to.have.length(1);
    expect(sent[0].tools).to.deep.equal([weather]);
    const content = res.body.outputs[0].content;
    expect(content).to.be.an("array").with.length(1);
    expect(content[0].type).to.equal("function");
    expect(content[0].function.name).to.equal("get_weather");
    expect(["Oslo", "Lima"]).to.include(JSON.parse(content[0].function.arguments).city);
  });

  it("offers only the tools named in tools_enabled", async () => {
    const marker = `enabled-${Date.now()}`;
    const tool = (name: string) => ({
      type: "function",
      function: { name, description: name, parameters: { type: "object", properties: {} } },
    });
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { tools_list_dictionary: [tool("keep_me"), tool("drop_me")] },
        tools_enabled: ["keep_me"],
        task: marker,
      },
    });
    expect(res.status).to.equal(200);
    expect(calls(marker)[0].tools.map((t: any) => t.function.name)).to.deep.equal(["keep_me"]);
  });

  it("executes MCP tools with the configured headers and token, feeds results back, summarises, and bills each call", async () => {
    const marker = `mcp-${Date.now()}`;
    const before = mcp.requests.length;
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: {
          agent_name: "M",
          mcp_config: { url: mcp.url, authorization_token: "mcp-secret", headers: { "x-tenant": "bees" }, timeout: 5 },
        },
        task: marker,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const sent = calls(marker);
    expect(sent).to.have.length(3); // tool call, answer after the tool result, summary
    const toolNames = sent[0].tools.map((t: any) => t.function.name);
    expect(toolNames).to.include.members(["add", "echo", "whoami", "extra_4"]); // every page was listed
    expect(toolNames.every((n: string) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).to.equal(true);
    const toolMessages = sent[1].messages.filter((m: any) => m.role === "tool");
    expect(toolMessages.length).to.be.at.least(1);
    for (const m of toolMessages) expect(m.content).to.be.a("string").and.not.be.empty;
    expect(sent[2].messages.at(-1).content).to.match(/tool results/);
    expect(sent[2].tools).to.equal(undefined);
    const received = mcp.requests.slice(before);
    expect(received.some((r) => r.method === "tools/call")).to.equal(true);
    for (const r of received) {
      expect(r.headers.authorization).to.equal("Bearer mcp-secret");
      expect(r.headers["x-tenant"]).to.equal("bees");
    }
    expect(res.body.usage.mcp_cost).to.equal(Math.round(toolMessages.length * 0.1 * 1e6) / 1e6);
    expect(JSON.stringify(res.body)).to.not.include("mcp-secret");
    // Withheld from the stored request, sealed apart: neither the token nor the header value is in Postgres in clear text.
    const [stored] = await h.deps.ds.query(
      "SELECT request::text AS request, sealed_secrets::text AS sealed FROM runs WHERE id = $1",
      [res.body.job_id],
    );
    expect(stored.request)
      .to.not.include("mcp-secret")
      .and.not.include('"bees"')
      .and.not.match(/enc:v\d:/);
    expect(stored.request).to.include('"[redacted]"');
    expect(stored.sealed)
      .to.match(/enc:v2:/)
      .and.not.include("mcp-secret")
      .and.not.include('"bees"');
  });

  it("fails the run clearly when an MCP server refuses the credentials, without echoing them", async () => {
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: {
          agent_name: "NoAuth",
          mcp_url: mcp.url,
          mcp_config: { url: mcp.url, authorization_token: "wrong-token" },
        },
        task: "x",
      },
    });
    expect(res.status).to.equal(500);
    expect(res.body.code).to.equal("MCP_UNAVAILABLE");
    expect(res.body.detail).to.include("127.0.0.1");
    expect(JSON.stringify(res.body)).to.not.include("wrong-token");
  });

  it("runs handoff agents on the delegated tasks and returns their answers to the delegating agent", async () => {
    const marker = `handoff-${Date.now()}`;
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: {
          agent_name: "Lead",
          tool_call_summary: false,
          handoffs: [
            { agent_name: "Writer", description: "Writes copy", system_prompt: "You write." },
            { agent_name: "Checker", description: "Checks facts", system_prompt: "You check." },
          ],
        },
        task: marker,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const lead = calls(marker).filter((b: any) => b.messages[0].content.startsWith("You are Lead"));
    const tool = lead[0].tools.find((t: any) => t.function.name === HANDOFF_TOOL);
    expect(tool.function.parameters.properties.agent_name.enum).to.deep.equal(["Writer", "Checker"]);
    const delegated = h.sim.journal
      .map((e: any) => e.body)
      .filter((b: any) => ["You write.", "You check."].includes(b.messages[0].content));
    expect(delegated.length).to.be.greaterThan(0);
    const toolMessage = lead[1].messages.find((m: any) => m.role === "tool");
    expect(toolMessage.content).to.match(/simulated/);
    const run = (await findRun(h.deps.ds, res.body.job_id)) as AgentRun | null;
    expect(run?.usage?.total_cost).to.be.greaterThan(0.02); // two agents at least
  });

  it("maps reasoning settings per provider and leaves them out where a model rejects them", async () => {
    const marker = `reason-${Date.now()}`;
    const o3 = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { model_name: "o3-mini", temperature: 0.4, max_tokens: 900, reasoning_effort: "high" },
        task: `${marker}-o3`,
      },
    });
    expect(o3.status).to.equal(200);
    const [openai] = calls(`${marker}-o3`);
    expect(openai).to.include({ reasoning_effort: "high", max_completion_tokens: 900 });
    expect(openai).to.not.have.any.keys("temperature", "max_tokens", "thinking");

    const claude = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: {
          model_name: "claude-sonnet-4-20250514",
          reasoning_enabled: true,
          thinking_tokens: 2000,
          max_tokens: 4000,
          temperature: 0.3,
        },
        task: `${marker}-claude`,
      },
    });
    expect(claude.status).to.equal(200);
    const [anthropic] = calls(`${marker}-claude`);
    expect(anthropic.thinking).to.deep.equal({ type: "enabled", budget_tokens: 2000 });
    expect(anthropic).to.not.have.any.keys("temperature", "reasoning_effort");

    const plain = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { model_name: "gpt-4.1", reasoning_effort: "high" }, task: `${marker}-gpt` },
    });
    expect(plain.status).to.equal(200);
    expect(calls(`${marker}-gpt`)[0]).to.not.have.any.keys("reasoning_effort", "thinking", "reasoning");
  });

  it("varies temperature deterministically across loops and writes the system prompt first with auto_generate_prompt", async () => {
    const marker = `dyn-${Date.now()}`;
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: {
          agent_name: "Poet",
          description: "Writes poems",
          temperature: 0.5,
          max_loops: 3,
          auto_generate_prompt: true,
        },
        task: marker,
      },
    });
    expect(res.status).to.equal(200);
    const sent = calls(marker);
    expect(sent).to.have.length(3);
    expect(sent.map((b: any) => b.temperature)).to.deep.equal([0.5, 0.6, 0.4]);
    const writer = h.sim.journal
      .map((e: any) => e.body)
      .filter(
        (b: any) =>
          // The shared journal holds other tests' calls too, chat calls whose content is parts among them.
          String(b.messages?.[0]?.content).startsWith("You write system prompts") &&
          String(b.messages?.[1]?.content).includes("Agent name: Poet"),
      );
    expect(writer).to.have.length(1);
    const step = await h.deps.ds.query("SELECT output FROM run_steps WHERE run_id = $1 ORDER BY seq LIMIT 1", [
      res.body.job_id,
    ]);
    expect(sent[0].messages[0]).to.deep.equal({ role: "system", content: step[0].output.content });
  });

  it("sends an agent without a temperature the hosted default 0.5, varied per loop like a given one, and answers that it used 0.5", async () => {
    const marker = `default-temp-${Date.now()}`;
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { agent_name: "Plain", max_loops: 3 }, task: marker },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.temperature).to.equal(0.5);
    expect(calls(marker).map((b: any) => b.temperature)).to.deep.equal([0.5, 0.6, 0.4]);

    // null reads as unset; without dynamic temperature every loop sends the same one.
    const steady = `${marker}-steady`;
    const fixed = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { agent_name: "Steady", temperature: null, dynamic_temperature_enabled: false, max_loops: 3 },
        task: steady,
      },
    });
    expect(fixed.status, JSON.stringify(fixed.body)).to.equal(200);
    expect(fixed.body.temperature).to.equal(0.5);
    expect(calls(steady).map((b: any) => b.temperature)).to.deep.equal([0.5, 0.5, 0.5]);
  });

  it("stops a run at its token budget with a clear failure", async () => {
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { agent_name: "Spender", max_loops: 5 }, task: "spend", budget: { max_tokens: 60 } },
    });
    expect(res.status).to.equal(500);
    expect(res.body.detail).to.match(/limit of 60 tokens/);
    const run = await findRun(h.deps.ds, res.body.job_id);
    expect(run?.error?.code).to.equal("BUDGET_EXCEEDED");
    expect(run?.usage?.total_tokens).to.be.greaterThan(0);
  });

  it("stops a run at its time limit, aborting the call in flight", async () => {
    const started = Date.now();
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { agent_name: "Sleeper", llm_args: { sim_latency_ms: 20_000 } },
        task: "sleep",
        budget: { timeout_seconds: 1 },
      },
    });
    expect(res.status).to.equal(500);
    expect(res.body.detail).to.match(/time limit/);
    expect(Date.now() - started).to.be.lessThan(10_000);
  });
});
