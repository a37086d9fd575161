import { expect } from "chai";
import { config } from "../../../shared/config";
import { harness, type Harness } from "../../helpers/harness";
import { agent, callerOf, callsMentioning, conversationOf, inputOf, postSwarm } from "../../helpers/swarm";

const uniqueMarker = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const LATENCY_MS = 500;

type Query = { query: string; researcher: string };

/** The Query Generator's plans as the model made them (its stored tool calls), round by round. */
async function storedPlans(h: Harness, runId: string): Promise<Query[][]> {
  const steps = await h.deps.ds.query(
    "SELECT step_key, agent_name, output FROM run_steps WHERE run_id = $1 AND step_key LIKE '%queries#%' ORDER BY step_key",
    [runId],
  );
  for (const step of steps) expect(step.agent_name).to.equal("Query Generator");
  return steps.map((s: any) => JSON.parse(s.output.tool_calls[0].function.arguments).queries);
}

describe("DeepResearchSwarm (E1)", () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await harness();
    ({ key } = await h.newKey());
  });

  it("plans queries for named researchers, researches every query in parallel, plans follow-ups from the findings, and synthesises a report", async function () {
    this.timeout(30_000);
    const marker = uniqueMarker("research");
    const names = ["Historian", "Economist"];
    const res = await postSwarm(h, key, {
      name: "Inquiry",
      swarm_type: "DeepResearchSwarm",
      max_loops: 2,
      agents: names.map((n) => agent(n)),
      task: marker,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: "success", swarm_type: "DeepResearchSwarm", number_of_agents: 4 });

    const plans = await storedPlans(h, res.body.job_id);
    expect(plans).to.have.length(2);
    expect(plans[0].length, "the first round plans at least 3 queries").to.be.within(3, 6);
    const [round1, round2] = plans;
    const output = res.body.output as { role: string; content: string; query?: string }[];
    expect(output.map((t) => t.role)).to.deep.equal([
      "Query Generator",
      ...round1.map((q) => q.researcher),
      "Query Generator",
      ...round2.map((q) => q.researcher),
      "Synthesis",
    ]);
    // The Query Generator turns are the plans, readable; research turns carry their query.
    expect(output[0].content).to.equal(round1.map((q, i) => `${i + 1}. [${q.researcher}] ${q.query}`).join("\n"));
    const research = output.filter((t) => t.query !== undefined);
    expect(research.map((t) => t.query)).to.deep.equal([...round1, ...round2].map((q) => q.query));

    // Calls: plan, every query, plan, every follow-up, report.
    const calls = callsMentioning(h, marker);
    const planned = round1.length + round2.length;
    expect(calls).to.have.length(planned + 3);
    const [plan1, plan2] = calls.filter((c) => callerOf(c) === "Query Generator");
    expect(plan1.tool_choice).to.deep.equal({ type: "function", function: { name: "plan_research_queries" } });
    const schema = plan1.tools[0].function.parameters.properties.queries;
    expect(schema.items.properties.researcher.enum).to.deep.equal(names);
    expect([schema.minItems, schema.maxItems]).to.deep.equal([3, 6]);
    expect(plan2.tools[0].function.parameters.properties.queries.minItems, "later rounds may plan none").to.equal(0);
    for (const name of names) expect(inputOf(plan1)).to.include(`- ${name}:`);
    expect(inputOf(plan1)).to.not.include("Findings so far");

    // Each query is its own turn of the researcher it was given: the task and that query only.
    const researchCalls = calls.filter((c) => names.includes(callerOf(c)));
    expect(researchCalls).to.have.length(planned);
    research.forEach((turn) => {
      const call = researchCalls.find((c) => inputOf(c).includes(`Your query:\n${turn.query}\n`))!;
      expect(call, `the call for ${turn.query}`).to.not.equal(undefined);
      expect(callerOf(call)).to.equal(turn.role);
      expect(inputOf(call)).to.include(marker);
      for (const other of research.filter((t) => t.query !== turn.query))
        expect(inputOf(call)).to.not.include(`Your query:\n${other.query}\n`);
      expect(turn.content).to.include(conversationOf(call));
    });
    // Round 2 plans from every round-1 finding; the report sees every finding of both rounds.
    const firstFindings = research.slice(0, round1.length);
    for (const finding of firstFindings) expect(inputOf(plan2)).to.include(finding.content);
    const synthesis = calls.at(-1);
    expect(callerOf(synthesis)).to.equal("Synthesis");
    for (const finding of research) expect(inputOf(synthesis)).to.include(finding.content);
    expect(output.at(-1)!.content).to.include(conversationOf(synthesis));
  });

  it("researches in parallel: one round's depth is 3 calls (plan, research, report) however many queries", async function () {
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
    expect(calls).to.have.length(queries.length + 2);
    const sequentialSeconds = ((queries.length + 2) * LATENCY_MS) / 1_000;
    expect(res.body.execution_time).to.be.at.least((3 * LATENCY_MS * 0.95) / 1_000);
    expect(res.body.execution_time).to.be.below(sequentialSeconds * 0.8);
  });

  it("without agents, a built-in Researcher on DEFAULT_MODEL; a researcher's own tools are offered in its research turns", async () => {
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
    for (const call of research) expect(call.tools).to.deep.equal([lookup]);
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
