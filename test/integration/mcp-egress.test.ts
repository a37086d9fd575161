import { expect } from "chai";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { agentCompletionSchema } from "../../api/schemas/agent-request.schema";
import { validateRequest } from "../../api/schemas/validate-request";
import { prepareAgentRequest } from "../../api/runs/agent-completion";
import type { AgentCompletionRequest } from "../../shared/contracts/agent-spec";
import { findRun, insertRun, isTerminal } from "../../shared/db/runs/run-rows";
import { newRunId } from "../../shared/db/run-id";
import { enqueue } from "../../shared/queues/queues";
import { harness, type Harness } from "../helpers/harness";
import { eventually, request } from "../helpers/http";
import { startImageServer } from "../helpers/image-server";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";
import { agent, entriesMentioning } from "../helpers/swarm";

const AGENT_COMPLETIONS = "/v1/agent/completions";

/**
 * The tests' EGRESS_ALLOW allows `127.0.0.1` (test/env.ts). `internal` is a live MCP server on
 * 127.0.0.2: a loopback address the policy must refuse, standing for an internal service. Before
 * the egress policy, every request below reached it (and ran).
 */
describe("MCP server URLs under the egress policy (agent and swarm completions and batches, and the workers)", function () {
  this.timeout(30_000);
  let h: Harness;
  let key: string;
  let keyId: string;
  let userId: string;
  let allowed: McpTestServer;
  let internal: McpTestServer;
  const plainServers: Server[] = [];

  before(async () => {
    h = await harness();
    ({ key, keyId, userId } = await h.newKey());
    allowed = await startMcpTestServer({ name: "allowed" });
    internal = await startMcpTestServer({ name: "internal", host: "127.0.0.2" });
  });
  after(async () => {
    await Promise.all([allowed?.close(), internal?.close()]);
    for (const s of plainServers) s.closeAllConnections();
    await Promise.all(plainServers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  const runCount = async () =>
    Number((await h.deps.ds.query("SELECT count(*) AS n FROM runs WHERE api_key_id = $1", [keyId]))[0].n);

  /** Posts and expects the 400 EGRESS_REFUSED body naming each field, with nothing stored, run or sent anywhere. */
  async function expectRefused(path: string, body: unknown, fields: string[], marker: string) {
    const runs = await runCount();
    const res = await request(h.baseUrl, "POST", path, { key, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body).to.include({ code: "EGRESS_REFUSED", status_code: 400 });
    expect(res.body.detail).to.be.a("string").and.include("EGRESS_ALLOW");
    for (const field of fields) expect(res.body.detail).to.include(`${field}: `);
    expect(await runCount()).to.equal(runs);
    expect(entriesMentioning(h, marker)).to.deep.equal([]);
    expect(internal.requests).to.deep.equal([]);
    return res.body.detail as string;
  }

  it("the agent completion refuses every spelling of a loopback, private or metadata address in every MCP field, before any run or LLM call", async () => {
    const p = internal.port;
    const spellings = [
      internal.url,
      `http://2130706434:${p}/mcp`,
      `http://0x7f.0.0.2:${p}/mcp`,
      `http://0177.0.0.2:${p}/mcp`,
      `http://127.2:${p}/mcp`,
      `http://localhost:${p}/mcp`,
      `http://LOCALHOST.:${p}/mcp`,
      `http://[::1]:${p}/mcp`,
      `http://[::ffff:127.0.0.2]:${p}/mcp`,
      `http://0.0.0.0:${p}/mcp`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/mcp",
      "http://[fd00::1]/mcp",
    ];
    for (const [i, url] of spellings.entries()) {
      const marker = `egress-agent-${i}-${Date.now()}`;
      await expectRefused(
        AGENT_COMPLETIONS,
        { agent_config: { agent_name: "A", mcp_url: url }, task: marker },
        ["agent_config.mcp_url"],
        marker,
      );
    }
    const marker = `egress-fields-${Date.now()}`;
    const detail = await expectRefused(
      AGENT_COMPLETIONS,
      {
        agent_config: {
          agent_name: "A",
          mcp_config: { url: `http://2130706434:${p}/mcp`, authorization_token: "tok-9" },
          mcp_configs: { connections: [{ url: allowed.url }, { url: `http://localhost:${p}/mcp` }] },
          handoffs: [{ agent_name: "B", mcp_url: `http://[::1]:${p}/mcp` }],
        },
        task: marker,
      },
      [
        "agent_config.mcp_config.url",
        "agent_config.mcp_configs.connections[1].url",
        "agent_config.handoffs[0].mcp_url",
      ],
      marker,
    );
    expect(detail).to.not.include("connections[0]").and.not.include("tok-9");
    expect(allowed.requests).to.deep.equal([]); // the request was refused as a whole
  });

  it("the swarm completion and the agent batch refuse the whole request; the swarm batch answers the refused item in its slot and runs the others", async () => {
    const marker = `egress-batch-${Date.now()}`;
    await expectRefused(
      "/v1/swarm/completions",
      {
        swarm_type: "SequentialWorkflow",
        agents: [agent("One"), agent("Two", { mcp_config: { url: internal.url } })],
        task: marker,
      },
      ["agents[1].mcp_config.url"],
      marker,
    );
    await expectRefused(
      "/v1/agent/batch/completions",
      [
        { agent_config: { agent_name: "Fine" }, task: marker },
        { agent_config: { agent_name: "Bad", mcp_url: `http://localhost:${internal.port}/mcp` }, task: marker },
      ],
      ["[1].agent_config.mcp_url"],
      marker,
    );
    const res = await request(h.baseUrl, "POST", "/v1/swarm/batch/completions", {
      key,
      body: [
        {
          name: "refused",
          swarm_type: "SequentialWorkflow",
          agents: [agent("Bad", { mcp_url: internal.url })],
          task: `${marker} refused`,
        },
        { name: "fine", swarm_type: "SequentialWorkflow", agents: [agent("Fine")], task: `${marker} fine` },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body[0]).to.include({ status: "error", swarm_name: "refused" });
    expect(res.body[0].detail)
      .to.include("agents[0].mcp_url: 127.0.0.2 is refused by the egress policy")
      .and.include("EGRESS_ALLOW");
    expect(res.body[1]).to.include({ status: "success", swarm_name: "fine" });
    expect(entriesMentioning(h, `${marker} refused`)).to.deep.equal([]);
    expect(internal.requests).to.deep.equal([]);
  });

  it("refuses image URLs a gateway or local model server would fetch from inside the network, on every endpoint; allowed ones and data URLs pass", async () => {
    const marker = `egress-img-${Date.now()}`;
    const metadata = "http://169.254.169.254/latest/meta-data/";
    await expectRefused(
      AGENT_COMPLETIONS,
      {
        agent_config: { agent_name: "Eye" },
        task: marker,
        img: metadata,
        imgs: ["data:image/png;base64,iVBORw0KGgo=", "http://[::1]/x.png"],
      },
      ["img", "imgs[1]"],
      marker,
    );
    await expectRefused(
      "/v1/swarm/completions",
      { swarm_type: "SequentialWorkflow", agents: [agent("One")], task: marker, img: "http://10.0.0.7/cat.png" },
      ["img"],
      marker,
    );
    await expectRefused(
      "/v1/agent/batch/completions",
      [
        { agent_config: { agent_name: "Fine" }, task: marker },
        { agent_config: { agent_name: "Eye" }, task: marker, imgs: [metadata] },
      ],
      ["[1].imgs[0]"],
      marker,
    );
    const batch = await request(h.baseUrl, "POST", "/v1/swarm/batch/completions", {
      key,
      body: [
        {
          name: "refused",
          swarm_type: "SequentialWorkflow",
          agents: [agent("Eye")],
          task: `${marker} refused`,
          img: "http://127.0.0.2/x.png",
        },
      ],
    });
    expect(batch.body[0]).to.include({ status: "error", swarm_name: "refused" });
    expect(batch.body[0].detail).to.include("img: ").and.include("EGRESS_ALLOW");
    // An allowed one is fetched by the worker (a local server: a public one would need the internet).
    const images = await startImageServer();
    try {
      const fine = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
        key,
        body: { agent_config: { agent_name: "Eye" }, task: marker, img: `${images.url}/a.png` },
      });
      expect(fine.status, JSON.stringify(fine.body)).to.equal(200);
    } finally {
      await images.close();
    }
  });

  it("uses an MCP server EGRESS_ALLOW allows, while the same server on another loopback address is refused", async () => {
    const marker = `egress-allowed-${Date.now()}`;
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: { agent_config: { agent_name: "M", mcp_url: allowed.url }, task: marker },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(allowed.requests.some((r) => r.method === "tools/call")).to.equal(true);
    await expectRefused(
      AGENT_COMPLETIONS,
      { agent_config: { agent_name: "M", mcp_url: internal.url }, task: `${marker}-2` },
      ["agent_config.mcp_url"],
      `${marker}-2`,
    );
  });

  /** Runs an agent on `mcpUrl` as if the request-time check had passed (stored and queued directly); its ended row. */
  async function runPastTheDoor(mcpUrl: string, marker: string) {
    const { value } = validateRequest(agentCompletionSchema, {
      agent_config: { agent_name: "Late", mcp_url: mcpUrl },
      task: marker,
    });
    const runId = newRunId();
    const request_ = prepareAgentRequest(value as AgentCompletionRequest, { apiKeyId: keyId, userId, tier: "free" });
    await insertRun(h.deps.ds, { id: runId, kind: "agent", apiKeyId: keyId, userId, request: request_ });
    await enqueue(h.deps.queues.shards[0], "agent-run", { runId }, runId);
    return eventually(async () => {
      const row = await findRun(h.deps.ds, runId);
      return row && isTerminal(row.status) ? row : undefined;
    });
  }

  it("fails a run whose server is refused only when the worker connects with EGRESS_REFUSED, before any LLM call", async () => {
    // As if the name had resolved to a public address when the request came and to this one now.
    const marker = `egress-connect-${Date.now()}`;
    const run = await runPastTheDoor(internal.url, marker);
    expect(run.status).to.equal("failed");
    expect(run.error).to.include({ code: "EGRESS_REFUSED" });
    expect((run.error as { message: string }).message)
      .to.include("127.0.0.2 is refused by the egress policy")
      .and.include("EGRESS_ALLOW");
    expect(entriesMentioning(h, marker)).to.deep.equal([]);
    expect(internal.requests).to.deep.equal([]);
  });

  it("fails a run whose server's name no longer resolves when the worker connects as one refused for its address, word for word", async () => {
    const marker = `egress-gone-${Date.now()}`;
    const [gone, inside] = await Promise.all([
      runPastTheDoor("http://cluster-service.invalid:8931/mcp", `${marker}-gone`),
      runPastTheDoor(`http://127.0.0.2:8931/mcp`, `${marker}-inside`),
    ]);
    const errorOf = (run: typeof gone, host: string) => JSON.stringify(run.error).split(host).join("<host>");
    expect(gone.status).to.equal("failed");
    expect(gone.error).to.include({ code: "EGRESS_REFUSED" });
    expect(errorOf(gone, "cluster-service.invalid")).to.equal(errorOf(inside, "127.0.0.2"));
    expect(JSON.stringify(gone.error)).to.not.include("ENOTFOUND").and.not.include("EAI_AGAIN");
    expect(entriesMentioning(h, marker)).to.deep.equal([]);
  });

  it("never hands back what a failing MCP server answered: the run error has its status or a category only", async () => {
    const SECRET = "INTERNAL-ANSWER-41f7";
    const answers: Record<string, RequestListener> = {
      "an HTTP 500 page": (_req, res) =>
        res
          .writeHead(500, { "content-type": "text/html" })
          .end(`<html><body>${SECRET} db=postgres://admin:hunter2@10.0.0.5</body></html>`),
      "a 404 JSON error": (_req, res) =>
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: SECRET })),
      "a body that is not JSON": (_req, res) =>
        res.writeHead(200, { "content-type": "application/json" }).end(`<<${SECRET}>>`),
      "a JSON-RPC error": (_req, res) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: -32000, message: SECRET } })),
    };
    for (const [what, listener] of Object.entries(answers)) {
      const server = createServer(listener);
      plainServers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
        key,
        body: { agent_config: { agent_name: "R", mcp_url: url }, task: `egress-body-${Date.now()}` },
      });
      expect(res.status, what).to.equal(500);
      expect(res.body.code, what).to.equal("MCP_UNAVAILABLE");
      expect(res.body.detail, what).to.include(`MCP server ${url} is unavailable`);
      expect(JSON.stringify(res.body), what).to.not.include(SECRET).and.not.include("hunter2");
      const job = await request(h.baseUrl, "GET", `/v1/jobs/${res.body.job_id}`, { key });
      expect(JSON.stringify(job.body), what).to.not.include(SECRET);
    }
  });
});
