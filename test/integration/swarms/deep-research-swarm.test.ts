import { expect } from "chai";
import { config } from "../../../shared/config";
import { deepResearchSwarm } from "../../../workers/swarms/types/deep-research-swarm";
import { harnessWithKey, type Harness } from "../../helpers/harness";
import { cannedCall, inProcessSwarm, type CannedDecisions } from "../../helpers/swarm-fixture";
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

const LATENCY_MS = 500;

type Query = { query: string; researcher: string };

/**
 * The harness's deployment offers `auto_search` (SEARCH_PROVIDER_URL is set; no provider listens
 * in this file, so a search reads "Search failed"), so a research turn is three calls: the simulated
 * model searches, answers from the result, and summarises its tool results (`tool_call_summary`).
 * deep-research-search.test.ts shows the search itself.
 */
const CALLS_PER_RESEARCH_TURN = 3;

/** The calls of the research turn of `query`: every call whose turn input names it. */
const researchTurnCalls = (calls: any[], query: string) =>
  calls.filter((c) =>
    c.messages.some(
      (m: any) => m.role === "user" && typeof m.content === "string" && m.content.includes(`Your query:\n${query}\n`),
    ),
  );

/** The Query Generator's plans as the model made them (its stored tool calls), round by round. */
async function storedPlans(h: Harness, runId: string): Promise<Query[][]> {
  const steps = await h.deps.ds.query(
    "SELECT step_key, agent_name, output FROM run_steps WHERE run_id = $1 AND step_key LIKE '%queries#%' ORDER BY step_key",
    [runId],
  );
  for (const step of steps) expect(step.agent_name).to.equal("Query Generator");
  return steps.map((s: any) => JSON.parse(s.output.tool_calls[0].function.arguments).queries);
}

describe("DeepResearchSwarm (POST /v1/swarm/completions)", () => {
  let h: Harness;
  let key: string;
  before(async () => ({ h, key } = await harnessWithKey()));

  it("plans queries for named researchers, researches every query in its own turn in parallel, and synthesises a report from every finding", async () => {
    const marker = uniqueMarker("research");
    const names = ["Historian", "Economist"];
    const res = await postSwarm(h, key, {
      name: "Inquiry",
      swarm_type: "DeepResearchSwarm",
      agents: names.map((n) => agent(n)),
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: "success", swarm_type: "DeepResearchSwarm" });

    const plans = await storedPlans(h, res.body.job_id);
    expect(plans).to.have.length(1);
    const [queries] = plans;
    expect(queries.length, "the first round plans at least 3 queries").to.be.within(3, 6);
    // Query Generator, Synthesis, and every researcher given a query.
    expect(res.body.number_of_agents).to.equal(2 + new Set(queries.map((q) => q.researcher)).size);
    const output = res.body.output as { role: string; content: string; query?: string }[];
    expect(output.map((t) => t.role)).to.deep.equal([
      "Query Generator",
      ...queries.map((q) => q.researcher),
      "Synthesis",
    ]);
    // The Query Generator turn is the plan, readable; research turns carry their query.
    expect(output[0].content).to.equal(queries.map((q, i) => `${i + 1}. [${q.researcher}] ${q.query}`).join("\n"));
    const research = output.slice(1, -1);
    expect(research.map((t) => t.query)).to.deep.equal(queries.map((q) => q.query));

    // Calls: the plan, every query's research turn, the report.
    const calls = callsMentioning(h, marker);
    expect(calls).to.have.length(queries.length * CALLS_PER_RESEARCH_TURN + 2);
    const plan = calls[0];
    expect(callerOf(plan)).to.equal("Query Generator");
    expect(plan.tool_choice).to.deep.equal({ type: "function", function: { name: "plan_research_queries" } });
    const schema = plan.tools[0].function.parameters.properties.queries;
    expect(schema.items.properties.researcher.enum).to.deep.equal(names);
    expect([schema.minItems, schema.maxItems, schema.uniqueItems]).to.deep.equal([3, 6, true]);
    for (const name of names) expect(inputOf(plan)).to.include(`- ${name}:`);
    expect(inputOf(plan)).to.not.include("Findings so far");

    // Each query is its own turn of the researcher it was given: the task and that query only.
    const researchCalls = calls.slice(1, -1);
    research.forEach((turn) => {
      const turnCalls = researchTurnCalls(researchCalls, turn.query!);
      expect(turnCalls, `the calls for ${turn.query}`).to.have.length(CALLS_PER_RESEARCH_TURN);
      const [call] = turnCalls;
      for (const c of turnCalls) expect(callerOf(c)).to.equal(turn.role);
      expect(inputOf(call)).to.include(marker);
      for (const other of research.filter((t) => t.query !== turn.query))
        expect(JSON.stringify(call.messages)).to.not.include(
          JSON.stringify(`Your query:\n${other.query}\n`).slice(1, -1),
        );
      expect(turn.content).to.include(conversationOf(turnCalls.at(-1)));
    });
    // The report sees every finding.
    const synthesis = calls.at(-1);
    expect(callerOf(synthesis)).to.equal("Synthesis");
    for (const finding of research) expect(inputOf(synthesis)).to.include(finding.content);
    expect(output.at(-1)!.content).to.include(conversationOf(synthesis));
  });

  it("with max_loops, plans new follow-up queries from the findings; a plan of nothing but repeats ends the research, without a repair", async () => {
    const marker = uniqueMarker("research-rounds");
    const tool = "plan_research_queries";
    const first = [
      { query: "old-a", researcher: "Historian" },
      { query: "old-b", researcher: "Economist" },
      { query: "old-c", researcher: "Historian" },
    ];
    // Round 1 is canned, round 2 is the model's own plan, round 3 only repeats a query, whatever it is asked.
    const canned: CannedDecisions = (lane) => {
      if (lane === "r0/queries") return cannedCall(tool, { queries: first });
      if (lane === "r2/queries") return cannedCall(tool, { queries: [{ query: " OLD-A ", researcher: "Economist" }] });
      return undefined;
    };
    const { swarm, steps } = inProcessSwarm(
      "DeepResearchSwarm",
      { agents: [agent("Historian"), agent("Economist")], max_loops: 4 },
      canned,
      { opening: marker },
    );
    const output = (await deepResearchSwarm.run(swarm)) as { role: string; content: string; query?: string }[];

    const calls = callsMentioning(h, marker);
    const followUpPlan = calls.find((c) => callerOf(c) === "Query Generator")!;
    // Round 2's plan is the model's own: one new query (the Query Generator turn shows it).
    const followUp = /^1\. \[([^\]]+)\] (.+)$/.exec(output[4].content);
    expect(followUp, output[4].content).to.not.equal(null);
    const followUps = { r: followUp![1], q: followUp![2] };
    expect(output[5].query).to.equal(followUps.q);
    expect(output.map((t) => t.role)).to.deep.equal([
      "Query Generator",
      "Historian",
      "Economist",
      "Historian",
      "Query Generator",
      followUps.r,
      "Query Generator",
      "Synthesis",
    ]);
    expect(output[6].content).to.equal(
      "No new queries: the research ends.\nLeft out, already planned or researched: OLD-A",
    );
    // Round 2's plan saw every round-1 finding, and may plan none.
    expect(inputOf(followUpPlan)).to.include("Findings so far");
    for (const turn of output.slice(1, 4))
      expect(inputOf(followUpPlan)).to.include(`${turn.role}, query: ${turn.query}):\n${turn.content}`);
    expect(followUpPlan.tools[0].function.parameters.properties.queries.minItems).to.equal(0);
    // The repeat of old-a was left out, not repaired, and with nothing new the research ended: no round 4.
    const decisionSteps = steps.filter((s) => (s.meta.input as any)?.kind === "decision").map((s) => s.lane);
    expect(decisionSteps).to.deep.equal(["r0/queries", "r1/queries", "r2/queries"]);
    // Calls: 3 + 1 research turns (the search call and the answer: these specs, not through the
    // API, have no tool_call_summary), the model's own round-2 plan, the report.
    expect(calls.map(callerOf)).to.have.length(4 * 2 + 2);
    const synthesis = calls.at(-1);
    for (const turn of output.filter((t) => t.query)) expect(inputOf(synthesis)).to.include(turn.content);
  });

  it("a follow-up plan that repeats queries researches only the new ones, and the run goes on to its report", async () => {
    const marker = uniqueMarker("research-repeats");
    const tool = "plan_research_queries";
    const first = ["old-a", "old-b", "old-c"].map((query) => ({ query, researcher: "Historian" }));
    // Every attempt of round 2 repeats a researched query and plans one new query twice.
    const canned: CannedDecisions = (lane) => {
      if (lane === "r0/queries") return cannedCall(tool, { queries: first });
      if (lane === "r1/queries")
        return cannedCall(tool, {
          queries: [
            { query: "Old-B", researcher: "Economist" },
            { query: "new-d", researcher: "Economist" },
            { query: " NEW-D", researcher: "Historian" },
          ],
        });
      return undefined;
    };
    const { swarm, steps } = inProcessSwarm(
      "DeepResearchSwarm",
      { agents: [agent("Historian"), agent("Economist")], max_loops: 2 },
      canned,
      { opening: marker },
    );
    const output = (await deepResearchSwarm.run(swarm)) as { role: string; content: string; query?: string }[];

    expect(output.map((t) => [t.role, t.query])).to.deep.equal([
      ["Query Generator", undefined],
      ["Historian", "old-a"],
      ["Historian", "old-b"],
      ["Historian", "old-c"],
      ["Query Generator", undefined],
      ["Economist", "new-d"],
      ["Synthesis", undefined],
    ]);
    expect(output[4].content).to.equal("1. [Economist] new-d\nLeft out, already planned or researched: Old-B; NEW-D");
    const decisionSteps = steps.filter((s) => (s.meta.input as any)?.kind === "decision").map((s) => s.lane);
    expect(decisionSteps, "no repair").to.deep.equal(["r0/queries", "r1/queries"]);
    // old-b was researched once (its search call and answer); the report reads all four findings.
    const calls = callsMentioning(h, marker);
    const research = calls.slice(0, -1);
    expect(researchTurnCalls(research, "old-b").map(callerOf)).to.deep.equal(["Historian", "Historian"]);
    expect(researchTurnCalls(research, "new-d").map(callerOf)).to.deep.equal(["Economist", "Economist"]);
    const synthesis = calls.at(-1);
    expect(callerOf(synthesis)).to.equal("Synthesis");
    for (const turn of output.filter((t) => t.query)) expect(inputOf(synthesis)).to.include(turn.content);
  });

  it("researches in parallel: one round's depth is the plan, one research turn and the report, however many queries", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("research-depth");
    const res = await postSwarm(h, key, {
      swarm_type: "DeepResearchSwarm",
      agents: [agent("Scout", { llm_args: { sim_latency_ms: LATENCY_MS } })],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const queries = (await storedPlans(h, res.body.job_id))[0];
    expect(queries.length).to.be.at.least(3);
    expect(queries.every((q) => q.researcher === "Scout")).to.equal(true);
    const calls = callsMentioning(h, marker);
    const made = queries.length * CALLS_PER_RESEARCH_TURN + 2;
    expect(calls).to.have.length(made);
    const sequentialSeconds = (made * LATENCY_MS) / 1_000;
    const depth = 1 + CALLS_PER_RESEARCH_TURN + 1;
    expect(res.body.execution_time).to.be.at.least((depth * LATENCY_MS * 0.95) / 1_000);
    expect(res.body.execution_time).to.be.below(sequentialSeconds * 0.8);
  });

  it("without agents, a built-in Researcher on DEFAULT_MODEL; a researcher's own tools are offered in its research turns, beside the search", async () => {
    const marker = uniqueMarker("research-builtin");
    const res = await postSwarm(h, key, { swarm_type: "DeepResearchSwarm", task: marker });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.number_of_agents).to.equal(3);
    const calls = callsMentioning(h, marker);
    expect([...new Set(calls.map(callerOf))]).to.deep.equal(["Query Generator", "Researcher", "Synthesis"]);
    for (const call of calls) expect(call.model).to.equal(config.llm.defaultModel);

    const toolMarker = uniqueMarker("research-tools");
    const lookup = {
      type: "function",
      function: { name: "lookup", description: "Look a fact up", parameters: { type: "object", properties: {} } },
    };
    const withTools = await postSwarm(h, key, {
      swarm_type: "DeepResearchSwarm",
      agents: [agent("Librarian", { tools_list_dictionary: [lookup] })],
      task: toolMarker,
    });
    expect(withTools.status, JSON.stringify(withTools.body)).to.equal(200);
    const research = callsMentioning(h, toolMarker).filter((c) => callerOf(c) === "Librarian");
    expect(research.length).to.be.at.least(3);
    for (const call of research)
      expect(call.tools.map((t: any) => t.function.name)).to.deep.equal(["lookup", "auto_search"]);
    expect(research[0].tools[0]).to.deep.equal(lookup);
  });

  it("a retried job replays the plan, every research turn and the report, and repeats no LLM call", async () => {
    const marker = uniqueMarker("research-replay");
    const res = await postSwarm(h, key, { swarm_type: "DeepResearchSwarm", agents: [agent("Scout")], task: marker });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { stepKeys, recorder, made } = await expectReplayWithoutLlm(h, res, deepResearchSwarm, marker);
    const queries = (made - 2) / CALLS_PER_RESEARCH_TURN;
    // Each research turn: its search call, the search (a tool step), the answer, the summary.
    const turnSteps = (i: number) => [`r0/q${i}#0`, `r0/q${i}/l0r0t0#0`, `r0/q${i}#1`, `r0/q${i}#2`];
    expect(stepKeys).to.deep.equal(
      ["r0/queries#0", ...Array.from({ length: queries }, (_, i) => turnSteps(i)).flat(), "synthesis#0"].sort(),
    );
    expect(recorder.replayed).to.equal(made + queries);
  });

  it("answers 400 for agents with the same name, before any LLM call", async () => {
    const marker = uniqueMarker("research-400");
    const res = await postSwarm(h, key, {
      swarm_type: "DeepResearchSwarm",
      agents: [agent("Twin"), agent("Twin")],
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.detail).to.equal("Agent names must be unique within a swarm: Twin");
    expect(callsMentioning(h, marker)).to.have.length(0);
  });
});
