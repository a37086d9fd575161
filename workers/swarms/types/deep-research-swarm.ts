import type { AgentSpec } from "../../../shared/contracts/agent-spec";
import { contentText } from "../../../shared/swarms/opening";
import { agentName } from "../../agents/handoffs";
import { internalAgent, internalAgentModel, jobTurn } from "../internal-agent";
import { decide } from "../structured-decision";
import type { SwarmRun } from "../swarm-run";
import type { SwarmTypeRunner } from "../swarm-type-runner";
import { teamList } from "../turn-inputs";
import {
  queryKey,
  queryPlanProblem,
  queryTool,
  renderQueries,
  sortPlan,
  type QueryPlan,
  type ResearchQuery,
} from "./deep-research-queries";
import { researchInput, researchTools } from "./deep-research-researcher";

/** The internal agents' names: their turns appear under these roles (docs/swarm-types.md, "Output shapes"). */
const QUERY_GENERATOR = "Query Generator";
const SYNTHESIS = "Synthesis";
const BUILT_IN_RESEARCHER = "Researcher";

/** One researcher: the spec its turns run on, and a complete system prompt for the built-in one. */
interface Researcher {
  spec: AgentSpec;
  systemPrompt?: string;
}

/** A finding: the query, who researched it, and what they found. */
interface Finding extends ResearchQuery {
  content: unknown;
}

/** The researchers: the request's agents, else one built-in Researcher on the internal model (DEFAULT_MODEL). */
function researchersOf(swarm: SwarmRun): Researcher[] {
  if (swarm.agents.length) return swarm.agents.map((spec) => ({ spec }));
  const prompt =
    "You are a research specialist. Research the query you are given in depth: gather the facts, evidence, data and sources that bear on it, say how reliable each is, and note what remains uncertain or contested.";
  const { spec, systemPrompt } = internalAgent(
    swarm,
    BUILT_IN_RESEARCHER,
    internalAgentModel(swarm, "question generator"),
    prompt,
    `researching one query of the plan; ${SYNTHESIS} writes the report from the findings`,
  );
  return [{ spec, systemPrompt }];
}

/** The findings so far, one block per query, in plan order. */
function findingBlocks(findings: Finding[]): string[] {
  return findings.map((f, i) => `Finding ${i + 1} (${f.researcher}, query: ${f.query}):\n${contentText(f.content)}`);
}

/**
 * DeepResearchSwarm: an internal Query Generator plans research queries, each given to a
 * researcher (a structured decision; the first round plans 3 to 6, later rounds 0 to 6 new ones);
 * every query is researched in its own agent turn, all in parallel (the request's agents, else a built-in
 * Researcher; several queries may go to one researcher); for L>1 the Query Generator sees the
 * findings and plans new follow-up queries for what is still open, a query planned or researched
 * before is left out (never a reason to fail the run), and no new query ends the research;
 * an internal Synthesis agent writes the report from every finding. Calls Σ(1+Q)+1, depth at most
 * 2·L+1. Output per round: the Query Generator turn (the numbered queries), then one turn per query
 * under its researcher's name with `query`; last, the Synthesis turn. Research turns search the web
 * when the deployment offers it (`researchTools`), each search a tool round inside the turn.
 */
export const deepResearchSwarm: SwarmTypeRunner<"DeepResearchSwarm"> = {
  name: "DeepResearchSwarm",
  async run(swarm) {
    const researchers = researchersOf(swarm);
    const tools = researchTools();
    const names = researchers.map((r) => agentName(r.spec));
    const task = swarm.opening;
    const team = swarm.agents.length ? teamList(swarm.agents) : `- ${BUILT_IN_RESEARCHER}: a research specialist`;
    const generator = internalAgent(
      swarm,
      QUERY_GENERATOR,
      internalAgentModel(swarm, "question generator"),
      "You plan deep research. Break the task into specific, distinct research queries that together cover it from every side that matters, and give each to the researcher best suited to it.",
      `planning the queries that ${names.join(", ")} research`,
    );
    const findings: Finding[] = [];
    for (let round = 0; round < swarm.loops; round++) {
      const first = round === 0;
      const tool = queryTool(names, first);
      const input = [
        `Research task:\n${task}`,
        `Researchers:\n${team}`,
        ...(first ? [] : ["Findings so far:", ...findingBlocks(findings)]),
        first
          ? `Plan the research with ${tool.name}.`
          : `Plan new follow-up queries (never one already researched) for what the findings leave open with ${tool.name}, or none if they answer the task.`,
      ].join("\n\n");
      const researched = new Set(findings.map((f) => queryKey(f.query)));
      const plan = await decide<QueryPlan>(
        swarm,
        generator,
        input,
        tool,
        (value) => queryPlanProblem(names, first, value, researched),
        `r${round}/queries`,
      );
      const sorted = sortPlan(plan, researched);
      const { queries } = sorted;
      swarm.conversation.add(jobTurn(QUERY_GENERATOR, generator.name, renderQueries(sorted)));
      if (!queries.length) break;

      const results = await swarm.parallel(queries, (q, i) => {
        const researcher = researchers[names.indexOf(q.researcher)];
        return swarm.turn(researcher.spec, researchInput(task, q.query, tools), {
          lane: `r${round}/q${i}`,
          place: `researching one query of the plan alongside ${names.join(", ")}; ${SYNTHESIS} writes the report from the findings`,
          systemPrompt: researcher.systemPrompt,
          toolsEnabled: tools,
        });
      });
      queries.forEach((q, i) => {
        findings.push({ ...q, content: results[i] });
        swarm.conversation.add({ role: q.researcher, content: results[i], query: q.query });
      });
    }

    const synthesis = internalAgent(
      swarm,
      SYNTHESIS,
      internalAgentModel(swarm, "synthesis"),
      "You write the report of a research team. Combine the findings into one complete, well-structured report that answers the task: key findings first, the evidence for each, where sources agree or conflict, and what remains open.",
      `writing the report from the findings of ${names.join(", ")}`,
    );
    const report = await swarm.turn(
      synthesis.spec,
      [`Research task:\n${task}`, ...findingBlocks(findings), "Write the report."].join("\n\n"),
      { lane: "synthesis", systemPrompt: synthesis.systemPrompt },
    );
    swarm.conversation.add(jobTurn(SYNTHESIS, synthesis.name, report));
    return swarm.conversation.turns;
  },
};
