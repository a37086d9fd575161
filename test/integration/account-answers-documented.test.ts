import { expect } from "chai";
import { harness, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { startMcpTestServer } from "../helpers/mcp-test-server";
import { DocumentSchemas } from "../helpers/openapi";

/**
 * The live answers of `GET /`, `GET /v1/agents/list`, `GET /v1/usage/report` and
 * `GET /v1/metrics/summary` (full and empty, 200 and 422) match what the OpenAPI document says.
 */
describe("the account and discovery answers match the OpenAPI document", () => {
  let h: Harness;
  let schemas: DocumentSchemas;
  before(async () => {
    h = await harness();
    const served = await request(h.baseUrl, "GET", "/openapi.json");
    schemas = new DocumentSchemas(served.body, "api");
  });

  it("for an account with runs and one without, and for bad queries", async () => {
    const busy = await h.newKey();
    const idle = await h.newKey();
    const mcp = await startMcpTestServer();
    try {
      await checkAnswers(busy.key, idle.key, mcp.url);
    } finally {
      await mcp.close();
    }
  });

  async function checkAnswers(busyKey: string, idleKey: string, mcpUrl: string): Promise<void> {
    const run = await request(h.baseUrl, "POST", "/v1/swarm/completions", {
      key: busyKey,
      body: {
        swarm_type: "ConcurrentWorkflow",
        task: "Two views.",
        agents: [
          { agent_name: "A", model_name: "gpt-4o-mini", llm_args: { metadata: { api_key: "sk-not-shown" } } },
          {
            agent_name: "B",
            model_name: "gpt-4o-mini",
            mcp_config: { url: mcpUrl, authorization_token: "t", headers: { "x-h": "v" } },
            handoffs: [{ agent_name: "C", model_name: "gpt-4o-mini" }],
          },
        ],
      },
    });
    expect(run.status, JSON.stringify(run.body)).to.equal(200);
    const problems: string[] = [];
    const calls: [string, string | undefined, number][] = [
      ["/", undefined, 200],
      ["/v1/agents/list", busyKey, 200],
      ["/v1/agents/list?limit=1", idleKey, 200],
      ["/v1/agents/list?limit=0", busyKey, 422],
      ["/v1/usage/report", busyKey, 200],
      ["/v1/usage/report?period=day", idleKey, 200],
      ["/v1/usage/report?period=year&start_date=2026-01-01", busyKey, 422],
      ["/v1/metrics/summary", busyKey, 200],
      ["/v1/metrics/summary", idleKey, 200],
    ];
    for (const [path, key, status] of calls) {
      const res = await request(h.baseUrl, "GET", path, { key });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(status);
      problems.push(...schemas.responseProblems("GET", path, res));
    }
    expect(problems).to.deep.equal([]);
  }
});
