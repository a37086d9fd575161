import type { AdvancedResearchOutput, AdvancedResearchRequest } from "../../shared/contracts/advanced-research";
import type { AgentContext } from "../agents/agent-context";
import { runAgent } from "../agents/agent-runner";
import {
  plannedQueries,
  plannerSpec,
  planTask,
  reporterSpec,
  reportTask,
  workerSpec,
  workerTask,
} from "./research-agents";
import { researchSearch } from "./research-search";

const textOf = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content));

/**
 * An advanced research session: `max_loops` rounds of the director planning web searches (a
 * structured list of queries), one researcher per query searching and reading its results, all in
 * parallel, and the director writing the report from their findings (with `director_max_loops`
 * turns). A later round plans from the last report. The session's messages are the output, the
 * last report last; `sources` counts the distinct URLs the searches returned.
 */
export async function runAdvancedResearch(
  request: AdvancedResearchRequest,
  ctx: AgentContext,
): Promise<AdvancedResearchOutput> {
  const cfg = request.config;
  const images = request.img ? [request.img] : [];
  const outputs: AdvancedResearchOutput["outputs"] = [];
  const sources = new Set<string>();
  const search = { numResults: cfg.exa_search_num_results, maxCharacters: cfg.exa_search_max_characters };
  let report: string | null = null;

  for (let round = 0; round < cfg.max_loops; round++) {
    const lane = ctx.recorder.lane(`r${round}`);
    const plan = await runAgent(
      plannerSpec(cfg),
      { task: planTask(request.task, report), images },
      { ...ctx, recorder: lane.lane("plan") },
    );
    const queries = plannedQueries(plan.content, request.task);
    outputs.push({ role: plan.agentName, content: `Research plan:\n${queries.map((q) => `- ${q}`).join("\n")}` });

    const findings = await Promise.all(
      queries.map(async (query, i) => {
        const worker = workerSpec(cfg, i);
        const workerLane = lane.lane(`w${i}`);
        const found = await researchSearch(query, search, worker.agent_name!, ctx, workerLane);
        found.urls.forEach((url) => sources.add(url));
        const answer = await runAgent(
          worker,
          { task: workerTask(request.task, query, found.text) },
          { ...ctx, recorder: workerLane },
        );
        return { agent: answer.agentName, query, text: textOf(answer.content) };
      }),
    );
    for (const f of findings) outputs.push({ role: f.agent, content: f.text });

    const written = await runAgent(
      reporterSpec(cfg),
      { task: reportTask(request.task, findings, report), images },
      { ...ctx, recorder: lane.lane("report") },
    );
    report = textOf(written.content);
    outputs.push({ role: written.agentName, content: report });
  }
  return { outputs, sources: sources.size };
}
