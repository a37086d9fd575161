import { expect } from "chai";
import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { EgressRefusedError } from "../../shared/net/egress-policy";
import { describeMcpError, McpUnavailableError } from "../../workers/agents/mcp/mcp-errors";
import { runErrorOf } from "../../workers/handlers/run-failure";
import { AgentTurnError } from "../../workers/swarms/agent-turn-error";
import { mcpRequestHeaders, mcpSecrets } from "../../workers/agents/mcp/mcp-headers";
import { displayUrl, redactSecrets } from "../../workers/agents/mcp/mcp-redact";
import { toolResultText } from "../../workers/agents/mcp/mcp-result-text";
import { collectMcpServers } from "../../workers/agents/mcp/mcp-servers";
import { sanitizeToolName, uniqueToolName } from "../../workers/agents/mcp/mcp-tool-names";
import { toolParameters } from "../../workers/agents/mcp/mcp-tool-schema";
import { mcpToolSettings } from "../../workers/agents/mcp/mcp-tool-settings";

describe("MCP parts", () => {
  it("collects mcp_url, mcp_config and mcp_configs in order, with defaults, once per url+token", () => {
    const servers = collectMcpServers({
      mcp_url: "https://a.example/mcp",
      mcp_config: { url: "https://b.example/mcp", authorization_token: "t1", timeout: 30 },
      mcp_configs: {
        connections: [
          { url: "https://a.example/mcp" }, // same as mcp_url
          { url: "https://a.example/mcp", authorization_token: "<AUTH_TOKEN>" }, // placeholder = no token: same again
          { url: "https://b.example/mcp", authorization_token: "t2" }, // other token: kept
          { url: " https://b.example/mcp ", authorization_token: "t1", headers: { "X-A": "1" } }, // same as mcp_config
          { url: "   " },
          { url: "https://c.example/mcp", type: "mcp", transport: "streamable_http", timeout: 0 },
        ],
      },
    });
    expect(servers).to.deep.equal([
      { type: "mcp", url: "https://a.example/mcp", transport: "streamable_http", timeout: 10 },
      {
        type: "mcp",
        url: "https://b.example/mcp",
        authorization_token: "t1",
        transport: "streamable_http",
        timeout: 30,
      },
      {
        type: "mcp",
        url: "https://b.example/mcp",
        authorization_token: "t2",
        transport: "streamable_http",
        timeout: 10,
      },
      { type: "mcp", url: "https://c.example/mcp", transport: "streamable_http", timeout: 10 },
    ]);
    expect(collectMcpServers({ mcp_url: null, mcp_config: null, mcp_configs: null })).to.deep.equal([]);
    expect(collectMcpServers({ mcp_url: "", mcp_configs: { connections: [] } })).to.deep.equal([]);
  });

  it("builds request headers with the Bearer token, ignoring the placeholder", () => {
    expect(
      mcpRequestHeaders({ url: "u", headers: { "X-A": "1", authorization: "Basic zzz" }, authorization_token: "tok" }),
    ).to.deep.equal({
      "X-A": "1",
      Authorization: "Bearer tok",
    });
    expect(mcpRequestHeaders({ url: "u", authorization_token: "<AUTH_TOKEN>" })).to.deep.equal({});
    expect(mcpRequestHeaders({ url: "u", headers: null, authorization_token: null })).to.deep.equal({});
    expect(mcpSecrets({ url: "u", headers: { "X-Key": "k9" }, authorization_token: "tok" })).to.have.members([
      "k9",
      "Bearer tok",
      "tok",
    ]);
  });

  it("redacts secrets and credentials in URLs", () => {
    expect(redactSecrets("a tok b Bearer tok", ["tok", "Bearer tok"])).to.equal("a [redacted] b [redacted]");
    expect(displayUrl("https://user:pw@h.example:8443/mcp?key=s3cret#x")).to.equal("https://h.example:8443/mcp");
  });

  it("describes errors by status, code and category, never with text the server sent", () => {
    const BODY = "INTERNAL-BODY-7c1e";
    expect(describeMcpError(new McpError(ErrorCode.RequestTimeout, "Request timed out"), 2500, [])).to.equal(
      "timed out after 2.5 s",
    );
    expect(describeMcpError(new StreamableHTTPError(401, "nope"), 1000, [])).to.equal(
      "the server refused the authorization (HTTP 401)",
    );
    expect(
      describeMcpError(new StreamableHTTPError(500, `Error POSTing to endpoint: <html>${BODY}</html>`), 1000, []),
    ).to.equal("the server answered HTTP 500");
    expect(
      describeMcpError(new StreamableHTTPError(404, `Error POSTing to endpoint: {"error":"${BODY}"}`), 1000, []),
    ).to.equal("the server answered HTTP 404");
    const redirect = describeMcpError(
      new StreamableHTTPError(307, `Error POSTing to endpoint: Redirect to http://10.9.8.7/${BODY} not followed`),
      1000,
      [],
    );
    expect(redirect).to.equal("the server answered HTTP 307; a redirect to another origin is not followed");
    expect(describeMcpError(new StreamableHTTPError(-1, `Unexpected content type: text/${BODY}`), 1000, [])).to.equal(
      "the server answered with a content type MCP does not use",
    );
    expect(describeMcpError(new McpError(-32000, `the database password is ${BODY}`), 1000, [])).to.equal(
      "the server answered with MCP error -32000",
    );
    expect(
      describeMcpError(new SyntaxError(`Unexpected token '<', "<html>${BODY}"... is not valid JSON`), 1000, []),
    ).to.equal("the server's answer is not valid MCP");
    expect(describeMcpError(new Error(`SSE stream disconnected: ${BODY}`), 1000, [])).to.equal(
      "the request to the server failed",
    );
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    expect(describeMcpError(new TypeError("fetch failed", { cause: refused }), 1000, [])).to.equal(
      "the server could not be reached (ECONNREFUSED)",
    );
    expect(describeMcpError(refused, 1000, [])).to.equal("the server could not be reached (ECONNREFUSED)");
    const egress = describeMcpError(new EgressRefusedError("tok-77.example", "resolves to a private address"), 1000, [
      "tok-77",
    ]);
    expect(egress).to.include("EGRESS_ALLOW").and.include("[redacted].example").and.not.include("tok-77");
  });

  it("keeps EGRESS_REFUSED as the run error's code, for a single agent and for a swarm agent's turn", () => {
    const refused = new McpUnavailableError(
      "http://h.example/mcp",
      "h.example resolves to a private address; … EGRESS_ALLOW",
      "EGRESS_REFUSED",
    );
    expect(runErrorOf(refused)).to.include({ code: "EGRESS_REFUSED" });
    expect(new AgentTurnError("A", refused).code).to.equal("EGRESS_REFUSED");
    const down = new McpUnavailableError("http://h.example/mcp", "the server answered HTTP 502");
    expect(runErrorOf(down)).to.include({ code: "MCP_UNAVAILABLE" });
    expect(new AgentTurnError("A", down).code).to.equal("AGENT_FAILED");
  });

  it("sanitises tool names and makes them unique", () => {
    expect(sanitizeToolName("weather.lookup city")).to.equal("weather_lookup_city");
    expect(sanitizeToolName("é")).to.equal("_");
    expect(sanitizeToolName("")).to.equal("tool");
    expect(sanitizeToolName("y".repeat(70))).to.equal("y".repeat(64));
    const taken = new Set<string>();
    expect(["search", "search", "search", "a.b", "a_b"].map((n) => uniqueToolName(n, taken))).to.deep.equal([
      "search",
      "search_2",
      "search_3",
      "a_b",
      "a_b_2",
    ]);
    expect(uniqueToolName("z".repeat(64), new Set(["z".repeat(64)]))).to.equal(`${"z".repeat(62)}_2`);
  });

  it("turns an inputSchema into object parameters without $schema", () => {
    expect(toolParameters({ $schema: "x", type: "object", properties: { q: { type: "string" } } })).to.deep.equal({
      type: "object",
      properties: { q: { type: "string" } },
    });
    expect(toolParameters({ type: "object" })).to.deep.equal({ type: "object", properties: {} });
    expect(toolParameters({ type: "string" })).to.deep.equal({ type: "object", properties: {} });
    expect(toolParameters(undefined)).to.deep.equal({ type: "object", properties: {} });
  });

  it("reads tool_configurations per original tool name", () => {
    const config = {
      url: "u",
      tool_configurations: { a: { enabled: false }, b: { timeout: 60 }, c: "yes", d: { timeout: -1 } },
    };
    expect(mcpToolSettings(config, "a")).to.deep.equal({ enabled: false, timeoutSeconds: null });
    expect(mcpToolSettings(config, "b")).to.deep.equal({ enabled: true, timeoutSeconds: 60 });
    expect(mcpToolSettings(config, "c")).to.deep.equal({ enabled: true, timeoutSeconds: null });
    expect(mcpToolSettings(config, "d")).to.deep.equal({ enabled: true, timeoutSeconds: null });
    expect(mcpToolSettings({ url: "u" }, "a")).to.deep.equal({ enabled: true, timeoutSeconds: null });
  });

  it("renders tool results as text", () => {
    expect(
      toolResultText({
        content: [
          { type: "text", text: "one" },
          { type: "audio", data: "", mimeType: "audio/wav" },
          { type: "resource", resource: { uri: "file:///a.txt", text: "two" } },
          { type: "resource", resource: { uri: "file:///b.bin", blob: "AA==", mimeType: "application/octet-stream" } },
          { type: "resource_link", uri: "https://x/y", name: "y" },
        ],
        structuredContent: { ignored: true },
      }),
    ).to.equal(
      "one\n[audio: audio/wav]\ntwo\n[resource: file:///b.bin (application/octet-stream)]\n[resource link: y https://x/y]",
    );
    expect(toolResultText({ content: [] })).to.equal("(no content)");
    expect(toolResultText({ toolResult: { v: 1 } })).to.equal('{"v":1}');
  });
});
