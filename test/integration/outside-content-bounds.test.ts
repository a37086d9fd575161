import { expect } from "chai";
import {
  MCP_RESPONSE_MAX_BYTES,
  MCP_TOOLS_LISTED_MAX,
  MCP_TOOLS_MAX,
  MODEL_OUTPUT_MAX_CHARS,
  TOOL_ARGUMENTS_MAX_CHARS,
  TOOL_RESULT_MAX_CHARS,
} from "../../shared/limits/outside-content";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { runLedger } from "../helpers/ledger";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";
import { parseSse } from "../helpers/sse";
import { callsMentioning } from "../helpers/swarm";

const AGENT_COMPLETIONS = "/v1/agent/completions";

/** 2,000,000 characters of words (a tokenizer takes far longer over one repeated letter). */
const LONG_TEXT = "zebra mussels ".repeat(Math.ceil(2_000_000 / 14)).slice(0, 2_000_000);

/** What every tool message the model received carried, in call order. */
const toolMessages = (calls: any[]) =>
  calls.flatMap((c) => c.messages.filter((m: any) => m.role === "tool").map((m: any) => String(m.content)));

describe("outside content is bounded before it is stored, counted or forwarded", () => {
  let h: Harness;
  let key: string;
  let mcp: McpTestServer;
  let crowded: McpTestServer;
  let flood: McpTestServer;
  let backtracking: McpTestServer;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    mcp = await startMcpTestServer({ hugeResultChars: 2_000_000, pageSize: 50 });
    crowded = await startMcpTestServer({ extraTools: 3_000, bloatedSchemaChars: 20_000, pageSize: 500 });
    flood = await startMcpTestServer({ hugeResultChars: MCP_RESPONSE_MAX_BYTES + 1_000_000 });
    backtracking = await startMcpTestServer({ backtrackingSchema: true });
  });
  after(async () => Promise.all([mcp.close(), crowded.close(), flood.close(), backtracking.close()]));

  /** The run's answer and job read agree, and its bill is its ledger. */
  async function expectBilledAsLedger(res: any): Promise<Awaited<ReturnType<typeof runLedger>>> {
    const ledger = await runLedger(h, res.body.job_id);
    expect(res.body.usage.total_cost).to.be.closeTo(ledger.ledger, 1e-6);
    const tokens = ledger.steps.reduce((sum, s) => sum + s.input_tokens + s.output_tokens, 0);
    expect(res.body.usage.total_tokens).to.equal(tokens);
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
    expect(job.body.truncated).to.deep.equal(res.body.truncated);
    return ledger;
  }

  it("takes a tool result as the server gives it: its output schema's pattern is never run (it would take minutes)", async () => {
    const marker = `backtrack-${Date.now()}`;
    const started = performance.now();
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { agent_name: "Checker", mcp_config: { url: backtracking.url } },
        task: marker,
        tools_enabled: ["backtrack"],
      },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 2_000)).to.equal(200);
    expect(performance.now() - started, "ms").to.be.below(10_000);
    expect(backtracking.callsByTool.get("backtrack")).to.be.at.least(1);
    expect(toolMessages(callsMentioning(h, marker)).join("\n")).to.include("checked?");
  });

  it("cuts a 2,000,000-character MCP result to 100,000 in the stored step and the model's prompt, and says so", async () => {
    const marker = `huge-result-${Date.now()}`;
    const started = performance.now();
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { agent_name: "Reader", mcp_config: { url: mcp.url } },
        task: marker,
        tools_enabled: ["huge"],
      },
    });
    expect(performance.now() - started, "the run is not slowed by the result").to.be.below(10_000);
    expect(res.status, JSON.stringify(res.body).slice(0, 2_000)).to.equal(200);
    const mark = "…[truncated: 2,000,000 characters, kept the first 100,000]";
    const sent = toolMessages(callsMentioning(h, marker));
    expect(sent.length).to.be.at.least(1);
    for (const content of sent) {
      expect(content.length).to.equal(TOOL_RESULT_MAX_CHARS + mark.length);
      expect(content.endsWith(mark)).to.equal(true);
    }
    expect(res.body.truncated).to.deep.equal([
      {
        what: "tool_result",
        agent: "Reader",
        source: "huge",
        received: 2_000_000,
        kept: TOOL_RESULT_MAX_CHARS,
        unit: "characters",
      },
    ]);
    const ledger = await expectBilledAsLedger(res);
    const tool = ledger.steps.find((s) => s.output?.truncated);
    expect(tool!.output).to.deep.include({ isError: false, truncated: { received: 2_000_000, kept: 100_000 } });
    const [stored] = await h.deps.ds.query(
      `SELECT max(length(output::text)) AS longest FROM run_steps WHERE run_id = $1`,
      [res.body.job_id],
    );
    expect(Number(stored.longest)).to.be.below(TOOL_RESULT_MAX_CHARS + 1_000);
    expect(res.body.usage.mcp_cost).to.equal(0.1); // the one call, billed once
  });

  it("does not read an MCP answer past 16,000,000 bytes: the call fails and the model is told", async () => {
    const marker = `flood-${Date.now()}`;
    const started = performance.now();
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { agent_name: "Flooded", mcp_config: { url: flood.url, timeout: 3 } },
        task: marker,
        tools_enabled: ["huge"],
      },
    });
    expect(performance.now() - started).to.be.below(10_000);
    expect(res.status, JSON.stringify(res.body).slice(0, 2_000)).to.equal(200);
    const [failed] = toolMessages(callsMentioning(h, marker));
    expect(failed).to.match(/^Tool call failed: /);
    expect(failed.length).to.be.below(1_000);
    await expectBilledAsLedger(res);
  });

  it("offers at most 128 MCP tools, leaves out a tool whose schema is too big, stops listing at 1,000, and says so", async () => {
    const marker = `crowded-${Date.now()}`;
    const before = crowded.requests.length;
    const started = performance.now();
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: { agent_name: "Crowded", mcp_config: { url: crowded.url }, llm_args: { sim_reply: "done" } },
        task: marker,
      },
    });
    expect(performance.now() - started).to.be.below(10_000);
    expect(res.status, JSON.stringify(res.body).slice(0, 2_000)).to.equal(200);
    const [first] = callsMentioning(h, marker);
    const offered = first.tools.map((t: any) => t.function.name);
    expect(offered).to.have.length(MCP_TOOLS_MAX);
    expect(offered).to.not.include("bloated");
    expect(offered.slice(0, 2)).to.deep.equal(["add", "echo"]); // the first tools listed, in order
    const pages = crowded.requests.slice(before).filter((r) => r.method === "tools/list");
    expect(pages, "listing stopped at the bound, not after 3,000 tools").to.have.length(MCP_TOOLS_LISTED_MAX / 500);
    expect(res.body.truncated).to.deep.equal([
      {
        what: "tool_list",
        agent: "Crowded",
        source: crowded.url,
        received: MCP_TOOLS_LISTED_MAX,
        kept: MCP_TOOLS_MAX,
        unit: "tools",
      },
    ]);
    await expectBilledAsLedger(res);
  });

  it("cuts a model answer of 2,000,000 characters of tool arguments to its bound, and never sends the arguments to the tool", async () => {
    const marker = `long-args-${Date.now()}`;
    const echoes = mcp.callsByTool.get("echo") ?? 0;
    const started = performance.now();
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: {
          agent_name: "Writer",
          mcp_config: { url: mcp.url },
          llm_args: { sim_tool_arguments: { echo: { text: LONG_TEXT } } },
        },
        task: marker,
        tools_enabled: ["echo"],
      },
    });
    expect(performance.now() - started).to.be.below(10_000);
    expect(res.status, JSON.stringify(res.body).slice(0, 2_000)).to.equal(200);
    expect(mcp.callsByTool.get("echo") ?? 0, "the arguments never reached the server").to.equal(echoes);
    const answer = JSON.stringify({ text: LONG_TEXT });
    const kept = MODEL_OUTPUT_MAX_CHARS - "echo".length;
    expect(res.body.truncated).to.deep.equal([
      {
        what: "model_output",
        agent: "Writer",
        received: "echo".length + answer.length,
        kept: MODEL_OUTPUT_MAX_CHARS,
        unit: "characters",
      },
      { what: "tool_arguments", agent: "Writer", source: "echo", received: kept, kept: 0, unit: "characters" },
    ]);
    const [refusal] = toolMessages(callsMentioning(h, marker));
    expect(refusal).to.match(/^Tool call not run: its arguments are 599,996 characters, over the 100,000/);
    expect(TOOL_ARGUMENTS_MAX_CHARS).to.be.below(kept);
    const ledger = await expectBilledAsLedger(res);
    const cut = ledger.steps.find((s) => s.output?.truncated);
    expect(cut!.output.tool_calls[0].function.arguments).to.have.length(kept);
    expect(cut!.output.truncated).to.deep.equal({ received: 4 + answer.length, kept: MODEL_OUTPUT_MAX_CHARS });
    // The provider counted the whole answer, and that is what the step bills.
    expect(cut!.output_tokens).to.be.above(0);
  });

  it("stops reading a streamed answer at its bound, keeps 600,000 characters, and bills what it kept", async () => {
    const marker = `long-stream-${Date.now()}`;
    const started = performance.now();
    const res = await fetch(`${h.baseUrl}${AGENT_COMPLETIONS}`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        agent_config: {
          agent_name: "Streamer",
          streaming_on: true,
          mcp_config: { url: mcp.url },
          llm_args: { sim_tool_arguments: { echo: { text: LONG_TEXT } } },
        },
        task: marker,
        tools_enabled: ["echo"],
        stream: true,
      }),
    });
    const frames = parseSse(await res.text());
    expect(performance.now() - started).to.be.below(10_000);
    expect(res.status).to.equal(200);
    const jobId = frames[0].data.job_id;
    const ledger = await runLedger(h, jobId);
    const cut = ledger.steps.find((s) => s.output?.truncated);
    const whole = "echo".length + JSON.stringify({ text: LONG_TEXT }).length;
    expect(cut!.output.truncated.kept).to.equal(MODEL_OUTPUT_MAX_CHARS);
    expect(cut!.output.truncated.received).to.be.above(MODEL_OUTPUT_MAX_CHARS).and.at.most(whole);
    expect(cut!.output.tool_calls[0].function.arguments).to.have.length(MODEL_OUTPUT_MAX_CHARS - "echo".length);
    // The stream was left before the provider's count: the kept answer is counted, and billed as the ledger says.
    expect(cut!.output_tokens).to.be.above(0);
    const usage = frames.find((f) => f.event === "usage")!.data;
    expect(usage.total_cost).to.be.closeTo(ledger.ledger, 1e-6);
    const job = await request(h.baseUrl, "GET", `/v1/jobs/${jobId}`, { key });
    expect(job.body.truncated.map((t: any) => t.what)).to.deep.equal(["model_output", "tool_arguments"]);
  });
});
