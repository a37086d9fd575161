import { expect } from "chai";
import { createServer, type RequestListener, type Server } from "node:http";
import { config } from "../../shared/config";
import { redisText, postgresText } from "../helpers/secret-scan";
import { harnessWithKey, type Harness } from "../helpers/harness";
import { request } from "../helpers/http";
import { closeNow, listenLocally } from "../helpers/local-server";
import { captureLogs, type CapturedLogs } from "../helpers/log-capture";
import { searchResultBody, searchServerForSuite } from "../helpers/search-server";
import { expectSdkType, swarmsClient } from "../helpers/swarms-sdk";

const AGENT_COMPLETIONS = "/v1/agent/completions";
const OPERATOR_KEY = config.builtinTools.search.apiKey;

/** A plain HTTP server on `host` (127.0.0.1 is allowed by the tests' EGRESS_ALLOW; 127.0.0.2 is not). */
async function pageServer(
  host: string,
  handler: RequestListener,
): Promise<{ url: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    handler(req, res);
  });
  return { url: await listenLocally(server, 0, host), hits, server };
}

/** Makes this file's markers its own in the shared simulator journal. */
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe("built-in tools: auto_search and web_scraper (agent completion tools_enabled, GET /v1/tools/available)", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  const search = searchServerForSuite();
  let site: Awaited<ReturnType<typeof pageServer>>;
  let internal: Awaited<ReturnType<typeof pageServer>>;
  let logs: CapturedLogs;
  const answers: unknown[] = [];

  before(async () => {
    ({ h, key } = await harnessWithKey());
    internal = await pageServer("127.0.0.2", (_req, res) => res.end("internal secrets"));
    site = await pageServer("127.0.0.1", (req, res) => {
      if (req.url === "/article")
        return void res
          .writeHead(200, { "content-type": "text/html; charset=utf-8" })
          .end(
            "<html><head><title>Bees &amp; Hives</title><style>p{color:red}</style><script>alert('x')</script></head>" +
              "<body><h1>Hive report</h1><p>Workers dance to say where the nectar is.</p></body></html>",
          );
      if (req.url === "/to-internal") return void res.writeHead(302, { location: `${internal.url}/admin` }).end();
      if (req.url === "/huge") {
        // No content-length: the cap must hold while the body streams.
        res.writeHead(200, { "content-type": "text/plain" });
        const chunk = "x".repeat(64 * 1024);
        for (let sent = 0; sent <= config.builtinTools.scraper.maxBytes; sent += chunk.length) res.write(chunk);
        return void res.end();
      }
      res.writeHead(404).end();
    });
    logs = captureLogs();
  });
  after(async () => {
    logs?.stop();
    for (const s of [site?.server, internal?.server]) if (s) await closeNow(s);
  });

  /** Runs an agent completion with one built-in tool and returns the answer and the simulator calls of its run. */
  async function runWithTool(tools: string[], name: string, llmArgs: Record<string, unknown> = {}) {
    // Unique to this run: the simulator's journal is shared by every test file of the process.
    const marker = `${name}-${RUN}`;
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: {
          agent_name: `Researcher ${marker}`,
          model_name: "gpt-4o-mini",
          max_loops: 1,
          llm_args: llmArgs,
        },
        task: `Look this up: ${marker}`,
        tools_enabled: tools,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    answers.push(res.body);
    const calls = h.sim.journal
      .filter((e: any) => JSON.stringify(e.body.messages).includes(marker))
      .map((e: any) => e.body);
    return { res, calls };
  }

  const toolMessage = (call: any) => call.messages.find((m: any) => m.role === "tool")?.content as string;

  it("lists the tools this deployment offers, through the hosted SDK", async () => {
    const listed = await swarmsClient(h.baseUrl, key).client.tools.listAvailable();
    expectSdkType("ToolListAvailableResponse", listed, "client/tools");
    expect(listed).to.deep.equal({ status: "success", tools: ["auto_search", "web_scraper"] });
  });

  it("auto_search: the operator's provider gets the model's query with the operator's key, the results reach the next call, the flat fee is billed once", async () => {
    const before = search.requests.length;
    const { res, calls } = await runWithTool(["auto_search"], "search-marker-1");
    // One call offers the tool and gets its call, the next reads its result and answers, the
    // last summarises the tool results (`tool_call_summary` defaults to true).
    expect(calls).to.have.length(3);
    expect(calls[2].messages.at(-1).content).to.include("Using the tool results above");
    expect(calls[0].tools.map((t: any) => t.function.name)).to.deep.equal(["auto_search"]);
    const toolCall = calls[1].messages.find((m: any) => m.tool_calls)?.tool_calls[0];
    const query = JSON.parse(toolCall.function.arguments).query;

    const sent = search.requests.slice(before);
    expect(sent).to.have.length(1);
    expect(sent[0].path).to.equal("/search");
    expect(sent[0].headers["x-api-key"]).to.equal(OPERATOR_KEY);
    expect(sent[0].body).to.deep.equal({
      query,
      numResults: config.builtinTools.search.numResults,
      contents: { text: { maxCharacters: config.builtinTools.search.maxCharacters } },
    });
    // Nothing the client sent travels as a header, and the client's API key never reaches the provider.
    expect(JSON.stringify(sent[0].headers)).to.not.include("search-marker-1").and.not.include(key);

    expect(toolMessage(calls[1])).to.include(searchResultBody(query, 0)).and.include("URL: https://search.example/1");
    expect(calls[1].messages.at(-1).role).to.equal("tool");

    const { usage } = expectSdkType<any>("AgentRunResponse", res.body, "agent/agent");
    expect(usage.search_cost).to.equal(config.builtinTools.fees.auto_search);
    expect(usage).to.not.have.property("scrape_cost");
    const tokens =
      (usage.input_tokens * config.pricing.inputPerMTok + usage.output_tokens * config.pricing.outputPerMTok) / 1e6;
    expect(usage.total_cost).to.be.closeTo(tokens + config.pricing.perAgent + usage.search_cost, 1e-6);

    const [ledger] = await h.deps.ds.query(`SELECT billed_cost, steps FROM usage_ledger WHERE job_id = $1`, [
      res.body.job_id,
    ]);
    expect(ledger.billed_cost).to.equal(usage.total_cost);
    const steps = await h.deps.ds.query(
      `SELECT s.model, s.role FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE r.job_id = $1 ORDER BY s.seq`,
      [res.body.job_id],
    );
    expect(steps.map((s: any) => s.model)).to.deep.equal([
      "gpt-4o-mini",
      "tool:auto_search",
      "gpt-4o-mini",
      "gpt-4o-mini",
    ]);
  });

  it("attaches only auto_search when both are named, and keeps the client's own tools", async () => {
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        agent_config: {
          agent_name: "Both",
          model_name: "gpt-4o-mini",
          tools_list_dictionary: [{ name: "client_lookup", parameters: { type: "object", properties: {} } }],
          llm_args: { sim_reply: `no tools needed both-marker-${RUN}` },
        },
        task: `both-marker-${RUN}`,
        tools_enabled: ["web_scraper", "auto_search"],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [call]: any[] = h.sim.journal.filter((e: any) =>
      JSON.stringify(e.body.messages).includes(`both-marker-${RUN}`),
    );
    expect(call.body.tools.map((t: any) => t.function.name)).to.deep.equal(["client_lookup", "auto_search"]);
    // Billed for being enabled, though the model never searched.
    expect(res.body.usage.search_cost).to.equal(config.builtinTools.fees.auto_search);
  });

  it("web_scraper: fetches the page the model names and hands its readable text to the next call", async () => {
    const { res, calls } = await runWithTool(["web_scraper"], "scrape-marker-1", {
      sim_tool_arguments: { web_scraper: { url: `${site.url}/article` } },
    });
    expect(calls).to.have.length(3);
    const text = toolMessage(calls[1]);
    expect(text)
      .to.include("Title: Bees & Hives")
      .and.include("Hive report\nWorkers dance to say where the nectar is.");
    expect(text).to.not.include("<p>").and.not.include("alert").and.not.include("color:red");
    expect(res.body.usage.scrape_cost).to.equal(config.builtinTools.fees.web_scraper);
  });

  it("web_scraper refuses a private address, a redirect to one, and an oversized page, and the model is told why", async () => {
    const cases = [
      { url: `${internal.url}/admin`, says: "refused by the egress policy" },
      { url: `${site.url}/to-internal`, says: "refused by the egress policy" },
      { url: `${site.url}/huge`, says: `larger than ${config.builtinTools.scraper.maxBytes} bytes` },
    ];
    for (const [i, c] of cases.entries()) {
      const { calls } = await runWithTool(["web_scraper"], `refusal-marker-${i}`, {
        sim_tool_arguments: { web_scraper: { url: c.url } },
      });
      expect(toolMessage(calls[1])).to.include(`Could not read ${c.url}`).and.include(c.says);
    }
    expect(internal.hits).to.deep.equal([]);
  });

  it("web_scraper tells the model the same refusal for a name that does not resolve as for an internal address", async () => {
    const told: string[] = [];
    for (const [i, url] of [`${internal.url}/admin`, "http://cluster-service.invalid/admin"].entries()) {
      const { calls } = await runWithTool(["web_scraper"], `unresolvable-marker-${i}`, {
        sim_tool_arguments: { web_scraper: { url } },
      });
      told.push(toolMessage(calls[1]).split(url).join("<url>").split(new URL(url).hostname).join("<host>"));
    }
    expect(told[0]).to.equal(told[1]);
    expect(told[0]).to.equal(
      "Could not read <url>: <host> is refused by the egress policy: the service only connects to public http(s) addresses unless the operator allows the host with EGRESS_ALLOW.",
    );
  });

  it("a provider failure is the model's to work around, not the run's", async () => {
    search.set({ status: 500 });
    try {
      const { calls } = await runWithTool(["auto_search"], "search-down-marker");
      expect(toolMessage(calls[1])).to.equal("Search failed: the search provider answered 500.");
    } finally {
      search.set({ results: "echo" });
    }
  });

  it("runs at most TOOL_MAX_CALLS_PER_RUN built-in calls in a run, and tells the model when it has used them", async () => {
    const limit = config.builtinTools.maxCallsPerRun;
    const before = search.requests.length;
    const res = await request(h.baseUrl, "POST", AGENT_COMPLETIONS, {
      key,
      body: {
        // Every loop's answer makes one search (the simulator calls the tool until it has seen a result).
        agent_config: {
          agent_name: "Eager",
          model_name: "gpt-4o-mini",
          max_loops: limit + 1,
          tool_call_summary: false,
        },
        task: `limit-marker-${RUN}`,
        tools_enabled: ["auto_search"],
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(search.requests.length - before).to.equal(limit);
    const last: any = h.sim.journal
      .filter((e: any) => JSON.stringify(e.body.messages).includes(`limit-marker-${RUN}`))
      .at(-1);
    const toolMessages = last.body.messages.filter((m: any) => m.role === "tool");
    expect(toolMessages).to.have.length(limit + 1);
    expect(toolMessages.at(-1).content).to.include(`this run has used its ${limit} built-in tool calls`);
    expect(res.body.usage.search_cost).to.equal(config.builtinTools.fees.auto_search);
  });

  it("never shows the provider's key in an answer, a log line, Redis or Postgres", async () => {
    expect(answers.length).to.be.greaterThan(3);
    expect(JSON.stringify(answers)).to.not.include(OPERATOR_KEY);
    expect(logs.lines.length).to.be.greaterThan(0);
    expect(JSON.stringify(logs.lines)).to.not.include(OPERATOR_KEY);
    expect(await redisText(h.deps.redis)).to.not.include(OPERATOR_KEY);
    expect(await postgresText(h.deps.ds)).to.not.include(OPERATOR_KEY);
  });
});
