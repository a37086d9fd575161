import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { createRun } from "../helpers/factories";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { insertPrompt } from "../helpers/marketplace-prompts";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";

/**
 * `GET /v1/agents/list`: the agent configurations an account has run (agent completions' agents, swarm agents,
 * batch items), each once, newest first, bounded by `limit`; never a stranger's, never a secret.
 */
describe("GET /v1/agents/list", () => {
  let h: Harness;
  let mcp: McpTestServer;
  let a: { key: string; userId: string };
  let b: { key: string; userId: string };
  const tag = randomUUID().slice(0, 8);
  const secrets = {
    mcpToken: `mcp-token-${tag}`,
    mcpHeader: `mcp-header-${tag}`,
    providerKey: `sk-provider-${tag}`,
    paidPrompt: `You are the paid prompt ${tag}, never to be shown.`,
  };
  let paidPromptId: string;

  const scout = { agent_name: "Scout", model_name: "gpt-4o-mini", temperature: 0.2, max_loops: 1 };
  const writer = { agent_name: "Writer", model_name: "gpt-4o-mini", system_prompt: "Write plainly." };

  async function ok(path: string, key: string, body: unknown) {
    const res = await request(h.baseUrl, "POST", path, { key, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res;
  }
  const list = (key: string, query = "") => request(h.baseUrl, "GET", `/v1/agents/list${query}`, { key });

  before(async function () {
    this.timeout(60_000);
    h = await harness();
    mcp = await startMcpTestServer();
    a = await h.newKey();
    b = await h.newKey();
    const seller = await h.newKey();
    paidPromptId = (
      await insertPrompt(h.deps.ds, { userId: seller.userId, prompt: secrets.paidPrompt, isFree: false, priceUsd: 5 })
    ).id;

    // Scout alone, then as a swarm agent beside Writer, then alone again with its fields in another
    // order and a null spelled out: one Scout, used last after Writer.
    await ok("/v1/agent/completions", a.key, { agent_config: scout, task: "Look around." });
    await ok("/v1/swarm/completions", a.key, {
      swarm_type: "SequentialWorkflow",
      task: "Scout, then write.",
      agents: [scout, writer],
    });
    await ok("/v1/agent/completions", a.key, {
      agent_config: {
        max_loops: 1,
        temperature: 0.2,
        model_name: "gpt-4o-mini",
        agent_name: "Scout",
        description: null,
      },
      task: "Look again.",
    });
    // The secret-bearing agent, as a batch item: the newest.
    await ok("/v1/agent/batch/completions", a.key, [
      {
        agent_config: {
          agent_name: "Keeper",
          model_name: "gpt-4o-mini",
          marketplace_prompt_id: paidPromptId,
          llm_args: { metadata: { api_key: secrets.providerKey }, sim_reply: "noted" },
          mcp_config: {
            url: mcp.url,
            authorization_token: secrets.mcpToken,
            headers: { "x-tenant": secrets.mcpHeader },
            timeout: 5,
          },
        },
        task: "Keep it.",
      },
    ]);
  });
  after(async () => mcp.close());

  it("lists each configuration once, the most recently used first, with count and the hosted fields", async () => {
    const res = await list(a.key);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.count).to.equal(3);
    expect(res.body.limit).to.equal(100);
    expect(res.body.has_more).to.equal(false);
    expect(new Date(res.body.timestamp).getTime()).to.be.closeTo(Date.now(), 60_000);
    expect(res.body.agents.map((agent: { agent_name: string }) => agent.agent_name)).to.deep.equal([
      "Keeper",
      "Scout",
      "Writer",
    ]);
    const [, shownScout, shownWriter] = res.body.agents;
    expect(shownScout).to.include({ agent_name: "Scout", model_name: "gpt-4o-mini", temperature: 0.2, max_loops: 1 });
    expect(shownScout).not.to.have.property("description"); // null fields are not part of a configuration
    expect(shownWriter).to.include({ system_prompt: "Write plainly.", role: "worker", max_tokens: 8192 });
  });

  it("never shows a secret: MCP token and header, provider key and a paid marketplace prompt's text", async () => {
    const res = await list(a.key);
    const text = JSON.stringify(res.body);
    for (const secret of Object.values(secrets)) expect(text, `the list holds ${secret}`).not.to.include(secret);
    const keeper = res.body.agents[0];
    expect(keeper.marketplace_prompt_id).to.equal(paidPromptId);
    expect(keeper).not.to.have.property("system_prompt");
    expect(keeper.mcp_config).to.include({ url: mcp.url, authorization_token: "[redacted]" });
    expect(keeper.mcp_config.headers).to.deep.equal({ "x-tenant": "[redacted]" });
    expect(keeper.llm_args).to.deep.equal({ metadata: { api_key: "[redacted]" }, sim_reply: "noted" });
  });

  it("bounds the answer with limit, still counting every configuration", async () => {
    const res = await list(a.key, "?limit=2");
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.agents.map((agent: { agent_name: string }) => agent.agent_name)).to.deep.equal(["Keeper", "Scout"]);
    expect(res.body).to.include({ count: 3, limit: 2, has_more: true });
  });

  it("refuses a bad limit with 422 naming it", async () => {
    for (const limit of ["0", "501", "many", "1.5"]) {
      const res = await list(a.key, `?limit=${limit}`);
      expect(res.status, limit).to.equal(422);
      expect(res.body.detail.map((d: { loc: string[] }) => d.loc)).to.deep.equal([["query", "limit"]]);
    }
  });

  it("shows another account only its own agents", async () => {
    const empty = await list(b.key);
    expect(empty.status).to.equal(200);
    expect(empty.body).to.include({ count: 0, has_more: false });
    expect(empty.body.agents).to.deep.equal([]);
    await ok("/v1/agent/completions", b.key, { agent_config: scout, task: "Mine." });
    const own = await list(b.key);
    expect(own.body.count).to.equal(1);
    expect(own.body.agents.map((agent: { agent_name: string }) => agent.agent_name)).to.deep.equal(["Scout"]);
    expect((await list(a.key)).body.count).to.equal(3); // B's use adds nothing to A's list
  });

  it("reads the agents of any kind of run that takes them, and nothing from runs that take none", async () => {
    const c = await h.newKey();
    const owner = { apiKeyId: c.keyId, userId: c.userId };
    await createRun(h.deps.ds, {
      kind: "graph_workflow",
      owner,
      request: { agents: [{ agent_name: "Node", model_name: "gpt-4o-mini" }, "not an agent"] } as never,
    });
    await createRun(h.deps.ds, { kind: "token_launch", owner });
    await createRun(h.deps.ds, { kind: "agent_batch", owner, request: { total_requests: 2 } });
    const res = await list(c.key);
    expect(res.body.count).to.equal(1);
    expect(res.body.agents).to.deep.equal([{ agent_name: "Node", model_name: "gpt-4o-mini" }]);
  });

  it("needs an API key", async () => {
    expect((await request(h.baseUrl, "GET", "/v1/agents/list")).status).to.equal(401);
  });
});
