import { expect } from "chai";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpConfig } from "../../shared/contracts/agent-spec";
import { McpToolbox, McpUnavailableError } from "../../workers/agents/mcp/mcp-toolbox";
import { startMcpTestServer, type McpTestServer } from "../helpers/mcp-test-server";

/** Polls until `check` returns true, or fails after `timeoutMs` (no fixed sleeps). */
async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function openFails(servers: McpConfig[]): Promise<McpUnavailableError> {
  try {
    const toolbox = await McpToolbox.open(servers);
    await toolbox.close();
  } catch (error) {
    expect(error).to.be.instanceOf(McpUnavailableError);
    return error as McpUnavailableError;
  }
  throw new Error("open succeeded");
}

/** A loopback URL where nothing listens (a test server that was started and closed again). */
async function deadUrl(): Promise<string> {
  const server = await startMcpTestServer();
  await server.close();
  return server.url;
}

const ALL_TOOLS = [
  "add",
  "echo",
  "whoami",
  "slow",
  "fail",
  "picture",
  "stats",
  "weather.lookup city",
  "x".repeat(80),
  "extra_1",
  "extra_2",
  "extra_3",
  "extra_4",
];

describe("McpToolbox against a real MCP server", function () {
  this.timeout(20_000);
  let server: McpTestServer;
  let toolbox: McpToolbox;

  before(async () => {
    server = await startMcpTestServer({ pageSize: 3 });
    toolbox = await McpToolbox.open([{ url: server.url, tool_configurations: { slow: { timeout: 1 } } }]);
  });
  after(async () => {
    await toolbox?.close();
    await server?.close();
  });

  it("lists every tool across pages, with valid unique names and object schemas without $schema", () => {
    const lists = server.requests.filter((r) => r.method === "tools/list");
    expect(lists.length).to.equal(Math.ceil(ALL_TOOLS.length / 3)); // 13 tools, 3 per page → 5 pages
    const names = toolbox.tools.map((t) => t.function.name);
    expect(names).to.have.length(ALL_TOOLS.length);
    expect(names).to.include.members([
      "add",
      "echo",
      "whoami",
      "slow",
      "fail",
      "extra_4",
      "weather_lookup_city",
      "x".repeat(64),
    ]);
    expect(new Set(names).size).to.equal(names.length);
    for (const tool of toolbox.tools) {
      expect(tool.type).to.equal("function");
      expect(tool.function.name).to.match(/^[A-Za-z0-9_-]{1,64}$/);
      expect(tool.function.parameters).to.not.have.property("$schema");
      expect(tool.function.parameters).to.include({ type: "object" });
      expect(tool.function.parameters).to.have.property("properties").that.is.an("object");
      expect(toolbox.has(tool.function.name)).to.equal(true);
    }
    const add = toolbox.tools.find((t) => t.function.name === "add")!;
    expect(add.function.description).to.equal("Adds two numbers.");
    expect(add.function.parameters).to.deep.include({
      required: ["a", "b"],
      properties: { a: { type: "number" }, b: { type: "number" } },
    });
    expect(toolbox.has("weather.lookup city")).to.equal(false);
  });

  it("calls tools and returns their text, routing sanitised names to the original ones", async () => {
    expect(await toolbox.call("add", JSON.stringify({ a: 2, b: 3 }))).to.deep.equal({ isError: false, text: "5" });
    expect(await toolbox.call("echo", JSON.stringify({ text: "buzz" }))).to.deep.equal({
      isError: false,
      text: "buzz",
    });
    expect(await toolbox.call("weather_lookup_city", "")).to.deep.equal({
      isError: false,
      text: "weather.lookup city ok",
    });
    expect(server.callsByTool.get("weather.lookup city")).to.equal(1);
  });

  it("summarises non-text content and falls back to structuredContent", async () => {
    expect(await toolbox.call("picture", "{}")).to.deep.equal({
      isError: false,
      text: '[image: image/png]\n{"width":1,"height":1}',
    });
    expect(await toolbox.call("stats", "{}")).to.deep.equal({ isError: false, text: '{"count":3,"unit":"bees"}' });
  });

  it("turns a tool's isError result into a Tool error text", async () => {
    expect(await toolbox.call("fail", "{}")).to.deep.equal({
      isError: true,
      text: "Tool error: the fail tool always fails",
    });
  });

  it("answers invalid JSON arguments and unknown tools without calling the server", async () => {
    const before = { count: toolbox.callCount, posts: server.requests.filter((r) => r.method === "tools/call").length };
    const bad = await toolbox.call("add", "{a: 1");
    expect(bad.isError).to.equal(true);
    expect(bad.text).to.match(/^Invalid JSON arguments: /);
    expect((await toolbox.call("add", "[1, 2]")).text).to.equal("Invalid JSON arguments: expected a JSON object");
    expect(await toolbox.call("nope", "{}")).to.deep.equal({ isError: true, text: "Unknown tool: nope" });
    expect(toolbox.callCount).to.equal(before.count);
    expect(server.requests.filter((r) => r.method === "tools/call")).to.have.length(before.posts);
  });

  it("times a slow tool out after its tool_configurations timeout and cancels it on the server", async () => {
    const started = Date.now();
    const result = await toolbox.call("slow", JSON.stringify({ ms: 15_000 }));
    const elapsed = Date.now() - started;
    expect(result.isError).to.equal(true);
    expect(result.text).to.equal("Tool call failed: timed out after 1 s");
    expect(elapsed).to.be.within(900, 4_000);
    await until(() => server.requests.some((r) => r.method === "notifications/cancelled"));
  });

  it("rethrows an abort of the caller's signal instead of returning a result", async () => {
    const controller = new AbortController();
    const reason = new Error("run cancelled");
    const calls = server.requests.filter((r) => r.tool === "slow").length;
    const pending = toolbox.call("slow", JSON.stringify({ ms: 800 }), controller.signal);
    await until(() => server.requests.filter((r) => r.tool === "slow").length > calls);
    controller.abort(reason);
    let thrown: unknown;
    await pending.catch((e: unknown) => (thrown = e));
    expect(thrown).to.equal(reason);

    const already = new AbortController();
    already.abort(reason);
    let thrownEarly: unknown;
    await toolbox.call("add", '{"a":1,"b":1}', already.signal).catch((e: unknown) => (thrownEarly = e));
    expect(thrownEarly).to.equal(reason);
  });

  it("counts only the calls that reached the server", async () => {
    const sent = server.requests.filter((r) => r.method === "tools/call").length;
    expect(toolbox.callCount).to.equal(sent);
    const before = toolbox.callCount;
    await toolbox.call("add", '{"a":1,"b":2}');
    await toolbox.call("fail", "{}");
    await toolbox.call("add", "not json");
    expect(toolbox.callCount).to.equal(before + 2);
  });

  it("runs several calls in parallel", async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => toolbox.call("add", JSON.stringify({ a: n, b: n }))));
    expect(results.map((r) => r.text)).to.deep.equal(["2", "4", "6", "8"]);
  });
});

describe("McpToolbox credentials, routing and failures", function () {
  this.timeout(20_000);
  const TOKEN = "tok-secret-4f9a2b";
  const servers: McpTestServer[] = [];
  const toolboxes: McpToolbox[] = [];
  const start = async (opts?: Parameters<typeof startMcpTestServer>[0]) => {
    const s = await startMcpTestServer(opts);
    servers.push(s);
    return s;
  };
  const open = async (configs: McpConfig[]) => {
    const t = await McpToolbox.open(configs);
    toolboxes.push(t);
    return t;
  };
  after(async () => {
    await Promise.all(toolboxes.map((t) => t.close()));
    await Promise.all(servers.map((s) => s.close()));
  });

  it("sends the headers and the Bearer token on every request, and keeps the token out of results", async () => {
    const server = await start({ requireToken: TOKEN });
    const toolbox = await open([
      { url: server.url, authorization_token: TOKEN, headers: { "X-Tenant": "acme", "X-Trace": "t-1" } },
    ]);
    const result = await toolbox.call("whoami", "{}");
    expect(result.isError).to.equal(false);
    expect(result.text)
      .to.include("x-tenant: acme")
      .and.include("x-trace: t-1")
      .and.include("authorization: Bearer [redacted]");
    expect(result.text).to.not.include(TOKEN);
    expect(server.requests.length).to.be.greaterThan(2);
    for (const request of server.requests) {
      expect(request.headers.authorization).to.equal(`Bearer ${TOKEN}`);
      expect(request.headers["x-tenant"]).to.equal("acme");
    }
  });

  it("ignores the <AUTH_TOKEN> placeholder", async () => {
    const server = await start();
    const toolbox = await open([{ url: server.url, authorization_token: "<AUTH_TOKEN>" }]);
    expect((await toolbox.call("whoami", "{}")).text).to.equal("(no headers)");
    expect(server.requests.every((r) => r.headers.authorization === undefined)).to.equal(true);
  });

  it("fails open with McpUnavailableError, naming the server but no secret, when the token is missing or wrong", async () => {
    const server = await start({ requireToken: TOKEN });
    const missing = await openFails([{ url: server.url }]);
    expect(missing.message).to.include(server.url).and.include("401");
    expect(missing.message).to.not.include(TOKEN);

    const wrong = await openFails([
      {
        url: `${server.url}?key=query-secret`,
        authorization_token: "wrong-token-77",
        headers: { "X-Api-Key": "hdr-secret-88" },
      },
    ]);
    expect(wrong.message).to.include(server.url).and.include("401");
    for (const secret of ["wrong-token-77", "hdr-secret-88", "query-secret", TOKEN])
      expect(wrong.message).to.not.include(secret);
    expect(server.requests.filter((r) => r.headers.authorization === "Bearer wrong-token-77").length).to.be.greaterThan(
      0,
    );
  });

  it("fails open with McpUnavailableError when nothing listens at a server's URL", async () => {
    const url = await deadUrl();
    const error = await openFails([{ url }]);
    expect(error.message).to.include(url).and.include("ECONNREFUSED");
    expect(error.serverUrl).to.equal(url);
  });

  it("fails open after the server's timeout when it never answers, and closes the servers that did connect", async () => {
    const silent = createServer(() => undefined); // accepts requests, never responds
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    try {
      const alive = await start();
      const started = Date.now();
      const error = await openFails([{ url: alive.url }, { url: silentUrl, timeout: 1 }]);
      expect(Date.now() - started).to.be.within(900, 4_000);
      expect(error.message).to.equal(`MCP server ${silentUrl} is unavailable: timed out after 1 s`);
      // The healthy server's client had opened its event stream; closing the client ends it.
      expect(alive.requests.some((r) => r.httpMethod === "GET")).to.equal(true);
      await until(() => alive.openStreams() === 0);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("closes the event streams of every server on close()", async () => {
    const server = await start();
    const toolbox = await McpToolbox.open([{ url: server.url }]);
    await until(() => server.openStreams() === 1);
    await toolbox.close();
    await until(() => server.openStreams() === 0);
  });

  it("gives clashing tool names of two servers unique names and routes each to its server", async () => {
    const alpha = await start({ name: "alpha", pageSize: 100 });
    const beta = await start({ name: "beta", pageSize: 5 });
    const toolbox = await open([
      { url: alpha.url },
      { url: beta.url, tool_configurations: { extra_1: { enabled: false } } },
    ]);
    const names = toolbox.tools.map((t) => t.function.name);
    expect(names).to.have.length(ALL_TOOLS.length * 2 - 1);
    expect(new Set(names).size).to.equal(names.length);
    expect(names).to.include.members(["echo", "echo_2", "add_2", `${"x".repeat(62)}_2`, "extra_1"]);
    expect(names).to.not.include("extra_1_2"); // disabled on beta
    expect(toolbox.has("extra_1_2")).to.equal(false);

    const [a, b] = await Promise.all([toolbox.call("echo", '{"text":"hi"}'), toolbox.call("echo_2", '{"text":"hi"}')]);
    expect(a.text).to.equal("alpha: hi");
    expect(b.text).to.equal("beta: hi");
    expect(alpha.callsByTool.get("echo")).to.equal(1);
    expect(beta.callsByTool.get("echo")).to.equal(1);
    expect(toolbox.callCount).to.equal(2);
  });

  it("uses the server's timeout (seconds) for calls", async () => {
    const server = await start();
    const toolbox = await open([{ url: server.url, timeout: 1 }]);
    const started = Date.now();
    expect(await toolbox.call("slow", '{"ms":10000}')).to.deep.equal({
      isError: true,
      text: "Tool call failed: timed out after 1 s",
    });
    expect(Date.now() - started).to.be.within(900, 4_000);
    expect(await toolbox.call("slow", '{"ms":10}')).to.deep.equal({ isError: false, text: "waited 10 ms" });
  });

  it("reports a server that went away as a failed call, without the token", async () => {
    const server = await start({ requireToken: TOKEN });
    const toolbox = await open([{ url: server.url, authorization_token: TOKEN }]);
    await server.close();
    const result = await toolbox.call("add", '{"a":1,"b":2}');
    expect(result.isError).to.equal(true);
    expect(result.text).to.match(/^Tool call failed: /);
    expect(result.text).to.not.include(TOKEN);
    expect(toolbox.callCount).to.equal(1);
  });

  it("reports a call after close as a failed call", async () => {
    const server = await start();
    const toolbox = await McpToolbox.open([{ url: server.url }]);
    await toolbox.close();
    await toolbox.close(); // closing twice is harmless
    const result = await toolbox.call("add", '{"a":1,"b":2}');
    expect(result.isError).to.equal(true);
    expect(result.text).to.match(/^Tool call failed: /);
  });
});
