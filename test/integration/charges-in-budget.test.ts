import { expect } from "chai";
import { config } from "../../shared/config";
import { findRun } from "../../shared/db/runs/run-rows";
import { roundCost, tokenCosts } from "../../shared/llm/pricing";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { dataUrl, PNG_1PX } from "../helpers/images";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";
import { searchServerForSuite } from "../helpers/search-server";
import { agent, callsMentioning, postSwarm, uniqueMarker } from "../helpers/swarm";

const AGENT_COMPLETIONS = "/v1/agent/completions";
const { perAgent, perImage, perMcpCall } = config.pricing;
const fees = config.builtinTools.fees;

/**
 * A run's `budget.max_cost` counts what its bill counts, not only its LLM calls' tokens: the flat
 * fee of a built-in tool, images, MCP calls and the per-agent charges. A flat charge counts before
 * the work it pays for and must fit whole; a call needs room for its agent's charge. So a run whose
 * max_cost cannot cover its charges stops with BUDGET_EXCEEDED before spending on them, and is
 * billed no more than its max_cost.
 */
describe("charges besides tokens count in a run's max_cost", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  const search = searchServerForSuite();
  let mcp: McpTestServer;

  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
    mcp = await startMcpTestServer();
  });
  after(async () => {
    await mcp?.close();
  });

  /** Runs an agent completion expecting it to fail; returns the answer, the stored run and the LLM calls it made. */
  async function failedAgentRun(marker: string, body: Record<string, unknown>, agentConfig = {}) {
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { agent_name: "Thrifty", ...agentConfig }, task: `Look this up: ${marker}`, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    expect(res.body.code).to.equal("BUDGET_EXCEEDED");
    const run = await findRun(h.deps.ds, res.body.job_id);
    expect(run?.error?.code).to.equal("BUDGET_EXCEEDED");
    const steps = await h.deps.ds.query("SELECT model FROM run_steps WHERE run_id = $1 ORDER BY seq", [run!.id]);
    return { res, usage: run!.usage as unknown as Record<string, number>, calls: callsMentioning(h, marker), steps };
  }

  it("a max_cost below the auto_search fee stops the run before any LLM call or search, billed only what fit", async () => {
    const marker = uniqueMarker("fee-too-big");
    const searches = search.requests.length;
    const maxCost = 0.03;
    const { res, usage, calls, steps } = await failedAgentRun(marker, {
      tools_enabled: ["auto_search"],
      budget: { max_cost: maxCost },
    });
    expect(res.body.detail).to.equal(
      `The run reached its cost limit of $${maxCost}: the auto_search fee ($${fees.auto_search}) does not fit in what is left`,
    );
    expect(calls).to.deep.equal([]);
    expect(steps).to.deep.equal([]);
    expect(search.requests.length).to.equal(searches);
    // The agent's own charge fitted; the fee did not, so it is not on the bill.
    expect(usage).to.deep.equal({
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      img_cost: 0,
      mcp_cost: 0,
      total_cost: perAgent,
    });
  });

  it("counts a built-in tool's fee when the tool is enabled: fees that fill max_cost leave no room for a first call", async () => {
    const marker = uniqueMarker("fee-fills");
    const maxCost = roundCost(perAgent + fees.web_scraper);
    const { res, usage, calls, steps } = await failedAgentRun(marker, {
      tools_enabled: ["web_scraper"],
      budget: { max_cost: maxCost },
    });
    expect(res.body.detail).to.equal(`The run reached its cost limit of $${maxCost}`);
    expect(calls).to.deep.equal([]);
    expect(steps).to.deep.equal([]);
    expect(usage).to.deep.include({ scrape_cost: fees.web_scraper, total_cost: maxCost, total_tokens: 0 });
  });

  it("an image the run cannot pay for stops it before the model sees it", async () => {
    const marker = uniqueMarker("image");
    const maxCost = 0.2;
    const { res, usage, calls } = await failedAgentRun(marker, {
      img: dataUrl(PNG_1PX),
      budget: { max_cost: maxCost },
    });
    expect(perImage).to.be.greaterThan(maxCost);
    expect(res.body.detail).to.equal(
      `The run reached its cost limit of $${maxCost}: an image ($${perImage}) does not fit in what is left`,
    );
    expect(calls).to.deep.equal([]);
    expect(usage).to.deep.include({ img_cost: 0, total_cost: perAgent });
  });

  it("an MCP call the run cannot pay for is not made: the run stops, billed its one LLM call", async () => {
    const marker = uniqueMarker("mcp");
    const echoes = mcp.callsByTool.get("echo") ?? 0;
    const maxCost = 0.05;
    const { res, usage, calls, steps } = await failedAgentRun(
      marker,
      { tools_enabled: ["echo"], budget: { max_cost: maxCost } },
      { mcp_config: { url: mcp.url, timeout: 5 } },
    );
    expect(res.body.detail).to.equal(
      `The run reached its cost limit of $${maxCost}: an MCP call (echo) ($${perMcpCall}) does not fit in what is left`,
    );
    // The model asked for the tool; the server never got the call.
    expect(calls).to.have.length(1);
    expect(calls[0].tools.map((t: any) => t.function.name)).to.deep.equal(["echo"]);
    expect(mcp.callsByTool.get("echo") ?? 0).to.equal(echoes);
    expect(steps.map((s: { model: string }) => s.model))
      .to.have.length(1)
      .and.not.include("mcp:echo");
    const { inputCost, outputCost } = tokenCosts(usage.input_tokens, usage.output_tokens);
    expect(usage).to.deep.include({ mcp_cost: 0, total_cost: roundCost(inputCost + outputCost + perAgent) });
    expect(usage.total_cost).to.be.at.most(maxCost);
  });

  it("a swarm's next agent needs room for its per-agent charge: agents past max_cost never call", async () => {
    const marker = uniqueMarker("agents");
    const maxCost = 0.025;
    const res = await postSwarm(h, key, {
      swarm_type: "SequentialWorkflow",
      agents: ["First", "Second", "Third", "Fourth"].map((n) => agent(n, { llm_args: { sim_reply: "ok" } })),
      task: marker,
      budget: { max_cost: maxCost },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(500);
    expect(res.body.detail).to.equal(
      `Agent 'Third' failed: The run reached its cost limit of $${maxCost}: its next agent's per-agent charge ($${perAgent}) does not fit in what is left`,
    );
    expect(callsMentioning(h, marker)).to.have.length(2);
    const run = await findRun(h.deps.ds, res.body.job_id);
    expect(run?.error?.code).to.equal("BUDGET_EXCEEDED");
    const billing = (run!.usage as any).billing_info;
    expect(billing.cost_breakdown).to.deep.include({ num_agents: 2, agent_cost: roundCost(2 * perAgent) });
    const { input_token_cost: input, output_token_cost: output } = billing.cost_breakdown;
    expect(billing.total_cost).to.be.closeTo(input + output + 2 * perAgent, 1.5e-6);
    expect(billing.total_cost).to.be.at.most(maxCost);
  });
});
