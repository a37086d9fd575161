import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { rateLimitedApp } from "../helpers/rate-limited-app";

/** An MCP SDK client connected to `/mcp` of `baseUrl` with `key` as its bearer token. */
async function connect(baseUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: "apiary-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

const agentBody = (task: string, llmArgs: Record<string, unknown> = {}) => ({
  agent_config: { agent_name: "Helper", max_tokens: 100, llm_args: llmArgs },
  task,
});

describe("Apiary as an MCP server at /mcp", () => {
  let h: Harness;
  let key: string;
  let client: Client;

  before(async () => {
    ({ h, key } = await harnessWithKey());
    client = await connect(h.baseUrl, key);
  });
  after(() => client.close());

  it("lists its four tools, with input schemas from the endpoints' own", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.have.members(["run_agent", "run_swarm", "get_job", "list_swarm_types"]);
    const runAgent = tools.find((t) => t.name === "run_agent")!;
    expect(runAgent.inputSchema.type).to.equal("object");
    expect(JSON.stringify(runAgent.inputSchema)).to.include('"agent_config"').and.include('"task"');
    expect(tools.find((t) => t.name === "get_job")!.inputSchema.required).to.deep.equal(["job_id"]);
  });

  it("runs an agent, billed like the endpoint, and get_job reads it back", async () => {
    const result = await call(client, "run_agent", agentBody(`mcp-${randomUUID()}`));
    expect(result.isError, JSON.stringify(result)).to.equal(false);
    const body = result.structuredContent as Record<string, any>;
    expect(body).to.include({ success: true, name: "Helper" });
    expect(JSON.parse((result.content[0] as { text: string }).text)).to.deep.equal(body);
    const [ledger] = await h.deps.ds.query("SELECT billed_cost FROM usage_ledger WHERE job_id = $1", [body.job_id]);
    expect(Number(ledger.billed_cost)).to.be.greaterThan(0);

    const job = await call(client, "get_job", { job_id: body.job_id });
    expect(job.isError).to.equal(false);
    expect(job.structuredContent).to.include({ job_id: body.job_id, status: "success" });
  });

  it("runs a swarm and lists the swarm types as GET /v1/swarms/available does", async () => {
    const types = await call(client, "list_swarm_types");
    expect((types.structuredContent as any).swarm_types).to.include("SequentialWorkflow");
    const result = await call(client, "run_swarm", {
      swarm_type: "SequentialWorkflow",
      task: `mcp-swarm-${randomUUID()}`,
      agents: [
        { agent_name: "A", max_tokens: 50 },
        { agent_name: "B", max_tokens: 50 },
      ],
    });
    expect(result.isError, JSON.stringify(result)).to.equal(false);
    expect(result.structuredContent).to.include({ status: "success" });
  });

  it("answers bad arguments, another account's job and a failed run as tool errors with the endpoint's bodies", async () => {
    const bad = await call(client, "run_agent", { agent_config: { max_loops: 0 } });
    expect(bad.isError).to.equal(true);
    expect(bad.structuredContent).to.include({ status_code: 422 });

    const other = await h.newKey();
    const theirs = await connect(h.baseUrl, other.key);
    const run = await call(theirs, "run_agent", agentBody(`theirs-${randomUUID()}`));
    await theirs.close();
    const foreign = await call(client, "get_job", { job_id: (run.structuredContent as any).job_id });
    expect(foreign.isError).to.equal(true);
    expect(foreign.structuredContent).to.include({ status_code: 404, code: "NOT_FOUND" });

    const failed = await call(client, "run_agent", agentBody("fail please", { sim_error: 400 }));
    expect(failed.isError).to.equal(true);
    expect(failed.structuredContent).to.include({ code: "LLM_CALL_FAILED", status_code: 500 });
  });

  it("refuses a bad key with 401 and a bearer challenge", async () => {
    const res = await fetch(new URL("/mcp", h.baseUrl), {
      method: "POST",
      headers: {
        authorization: "Bearer nope",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).to.equal(401);
    expect(res.headers.get("www-authenticate")).to.match(/^Bearer /);
    let refused: unknown;
    await connect(h.baseUrl, "nope").catch((err: unknown) => (refused = err));
    expect(String(refused)).to.match(/401/);
  });

  it("counts MCP calls against the key's rate limits", async () => {
    const served = await rateLimitedApp(h, 3);
    try {
      const { key: fresh } = await h.newKey();
      const limited = await connect(served.url, fresh); // initialize: one point
      await limited.listTools(); // two
      await call(limited, "list_swarm_types"); // three
      let refused: unknown;
      await limited.listTools().catch((err: unknown) => (refused = err));
      expect(String(refused)).to.match(/429/);
      await limited.close();
    } finally {
      await served.close();
    }
  });

  it("refuses a batch over its bound, malformed JSON and a non-object body with a 4xx, never running anything", async () => {
    const post = (body: string) =>
      fetch(new URL("/mcp", h.baseUrl), {
        method: "POST",
        headers: {
          Authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body,
      });
    const runsBefore = Number((await h.deps.ds.query("SELECT count(*) AS n FROM runs"))[0].n);
    const message = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "run_agent", arguments: agentBody(`batch-${id}`) },
    });
    const batch = await post(JSON.stringify(Array.from({ length: 11 }, (_, i) => message(i))));
    expect(batch.status).to.equal(400);
    expect(await batch.json()).to.include({ code: "BATCH_TOO_LARGE" });
    for (const body of ["{nope", '"text"', "42"]) {
      const res = await post(body);
      expect(res.status, body).to.be.within(400, 499);
    }
    expect(Number((await h.deps.ds.query("SELECT count(*) AS n FROM runs"))[0].n)).to.equal(runsBefore);
  });
});
