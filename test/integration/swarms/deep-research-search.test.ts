import { expect } from "chai";
import { config } from "../../../shared/config";
import { deepResearchSwarm } from "../../../workers/swarms/types/deep-research-swarm";
import { expectTotalOfParts } from "../../helpers/costs";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { searchResultBody, searchServerForSuite } from "../../helpers/search-server";
import {
  agent,
  callerOf,
  callsMentioning,
  conversationOf,
  expectReplayWithoutLlm,
  inputOf,
  postSwarm,
  uniqueMarker,
} from "../../helpers/swarm";
import { expectSdkType, swarmsClient } from "../../helpers/swarms-sdk";

const OPERATOR_KEY = config.builtinTools.search.apiKey;

/** The calls of one research turn (those whose turn input names its query), in order. */
const turnCalls = (calls: any[], query: string) =>
  calls.filter((c) =>
    c.messages.some(
      (m: any) => m.role === "user" && typeof m.content === "string" && m.content.includes(`Your query:\n${query}\n`),
    ),
  );
const toolMessages = (call: any) => call.messages.filter((m: any) => m.role === "tool");

/** The queries of a stored run's first plan, in plan order. */
async function firstPlan(h: Harness, jobId: string): Promise<{ query: string; researcher: string }[]> {
  const [step] = await h.deps.ds.query(
    "SELECT s.output FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE r.job_id = $1 AND s.step_key = 'r0/queries#0'",
    [jobId],
  );
  return JSON.parse(step.output.tool_calls[0].function.arguments).queries;
}

/**
 * DeepResearchSwarm on a deployment with a search provider (the harness's SEARCH_PROVIDER_URL,
 * served here by the local Exa-protocol server): its researchers search the web.
 */
describe("DeepResearchSwarm with the built-in web search (POST /v1/swarm/completions)", function () {
  this.timeout(60_000);
  let h: Harness;
  let key: string;
  const search = searchServerForSuite();
  before(async () => ({ h, key } = await harnessWithKey()));

  it("every research turn is offered auto_search; a search reaches the provider with the operator's key, its results the researcher and the finding the Synthesis; the fee is billed once, in total_cost and the ledger", async () => {
    const marker = uniqueMarker("research-search");
    const query = `${marker} hive census`;
    const before = search.requests.length;
    const res = await swarmsClient(h.baseUrl, key).swarms.run({
      swarm_type: "DeepResearchSwarm",
      task: marker,
      agents: [
        { ...agent("Scout"), model_name: "gpt-4o-mini", llm_args: { sim_tool_arguments: { auto_search: { query } } } },
      ],
    });
    expectSdkType("SwarmRunResponse", res);
    const output = res.output as { role: string; content: string; query?: string }[];
    const research = output.filter((t) => t.query);
    expect(research.length).to.be.within(3, 6);

    // The provider got one search per research turn: the model's query, the operator's key.
    const sent = search.requests.slice(before);
    expect(sent).to.have.length(research.length);
    for (const s of sent) {
      expect(s.path).to.equal("/search");
      expect(s.body.query).to.equal(query);
      expect(s.headers["x-api-key"]).to.equal(OPERATOR_KEY);
      expect(JSON.stringify(s.headers)).to.not.include(key);
    }

    const calls = callsMentioning(h, marker);
    const synthesis = calls.at(-1);
    expect(callerOf(synthesis)).to.equal("Synthesis");
    expect(synthesis.tools ?? []).to.deep.equal([]);
    for (const turn of research) {
      // The search call, the answer from its result, the summary (tool_call_summary defaults to true).
      const [searching, answering, summary] = turnCalls(calls, turn.query!);
      expect(turnCalls(calls, turn.query!)).to.have.length(3);
      expect(searching.tools.map((t: any) => t.function.name)).to.deep.equal(["auto_search"]);
      expect(inputOf(searching)).to.include("You can search the web with auto_search");
      const [result] = toolMessages(answering);
      expect(result.content).to.include(searchResultBody(query, 0)).and.include("URL: https://search.example/1");
      expect(toolMessages(summary)).to.have.length(1);
      // The finding (the turn's answer, made with the search result) reaches the Synthesis.
      expect(turn.content).to.include(conversationOf(summary));
      expect(inputOf(synthesis)).to.include(turn.content);
    }
    // The Query Generator and the Synthesis are not researchers: no search for them.
    expect(calls.filter((c) => (c.tools ?? []).some((t: any) => t.function.name === "auto_search"))).to.have.length(
      research.length * 2,
    );

    const breakdown = (res.usage as any).billing_info.cost_breakdown;
    expect(breakdown.search_cost).to.equal(config.builtinTools.fees.auto_search);
    expect(breakdown).to.not.have.property("scrape_cost");
    const total = (res.usage as any).billing_info.total_cost;
    expectTotalOfParts(total, [
      breakdown.agent_cost,
      breakdown.input_token_cost,
      breakdown.output_token_cost,
      breakdown.img_cost,
      breakdown.mcp_cost,
      breakdown.search_cost,
    ]);
    const [ledger] = await h.deps.ds.query("SELECT billed_cost FROM usage_ledger WHERE job_id = $1", [res.job_id]);
    expect(ledger.billed_cost).to.equal(total);
  });

  it("bills the fee when the researchers had the search, even if none called it; other swarm types get no search and no fee", async () => {
    const marker = uniqueMarker("research-unused");
    // A scripted reply is a text answer: the simulated model never calls the tool it is offered.
    const res = await postSwarm(h, key, {
      swarm_type: "DeepResearchSwarm",
      task: marker,
      agents: [agent("Quiet", { llm_args: { sim_reply: `Nothing to search for ${marker}.` } })],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const research = callsMentioning(h, marker).filter((c) => callerOf(c) === "Quiet");
    expect(research.length).to.be.at.least(3);
    for (const call of research) expect(call.tools.map((t: any) => t.function.name)).to.deep.equal(["auto_search"]);
    expect(research.flatMap(toolMessages)).to.deep.equal([]);
    expect(res.body.usage.billing_info.cost_breakdown.search_cost).to.equal(config.builtinTools.fees.auto_search);

    const other = uniqueMarker("concurrent-no-search");
    const plain = await postSwarm(h, key, { swarm_type: "ConcurrentWorkflow", task: other, agents: [agent("Solo")] });
    expect(plain.status, JSON.stringify(plain.body)).to.equal(200);
    for (const call of callsMentioning(h, other)) expect(call.tools ?? []).to.deep.equal([]);
    expect(plain.body.usage.billing_info.cost_breakdown).to.not.have.property("search_cost");
  });

  it("caps the run's built-in calls at TOOL_MAX_CALLS_PER_RUN across all its research turns", async () => {
    const limit = config.builtinTools.maxCallsPerRun;
    const marker = uniqueMarker("research-cap");
    const before = search.requests.length;
    // Every loop of a research turn searches once (the simulator calls the tool until it sees a
    // result): two researchers, at least 3 queries of 4 loops each, are at least 12 searches wanted.
    const loops = Math.ceil((limit + 1) / 3);
    const res = await postSwarm(h, key, {
      swarm_type: "DeepResearchSwarm",
      task: marker,
      agents: ["Ant", "Bee"].map((n) => agent(n, { max_loops: loops, tool_call_summary: false })),
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const queries = await firstPlan(h, res.body.job_id);
    expect(queries.length * loops).to.be.greaterThan(limit);
    expect(search.requests.length - before).to.equal(limit);
    // Each turn's last call holds all its tool results: together, every search wanted, the later ones refused.
    const lasts = queries.map((q) => turnCalls(callsMentioning(h, marker), q.query).at(-1));
    const results = lasts.flatMap(toolMessages).map((m: any) => m.content as string);
    expect(results).to.have.length(queries.length * loops);
    const refused = results.filter((t) => t.includes(`this run has used its ${limit} built-in tool calls`));
    expect(refused).to.have.length(queries.length * loops - limit);
    expect(res.body.usage.billing_info.cost_breakdown.search_cost).to.equal(config.builtinTools.fees.auto_search);
  });

  it("a retried job replays every finished search: no second provider call, no second LLM call, the same output", async () => {
    const marker = uniqueMarker("research-search-replay");
    const res = await postSwarm(h, key, { swarm_type: "DeepResearchSwarm", task: marker, agents: [agent("Scout")] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const searches = search.requests.length;
    const { steps, recorder, ctx, made } = await expectReplayWithoutLlm(h, res, deepResearchSwarm, marker);
    const searchSteps = steps.filter((s: any) => s.model === "tool:auto_search");
    expect(searchSteps.length).to.be.at.least(3);
    expect(recorder.replayed).to.equal(made + searchSteps.length);
    expect(search.requests.length).to.equal(searches);
    expect([...ctx.usage.builtinTools]).to.deep.equal(["auto_search"]);
  });
});
