import type { AgentSpec } from "../../shared/contracts/agent-spec";
import type { AdvancedResearchConfig } from "../../shared/contracts/advanced-research";

/** The most queries the director may plan for one round (more are dropped). */
const MAX_QUERIES_PER_ROUND = 5;

/** An agent spec of the service's own, with the defaults a client's would get. */
function researchAgent(name: string, model: string, maxTokens: number, maxLoops: number, prompt: string): AgentSpec {
  return {
    agent_name: name,
    description: null,
    system_prompt: prompt,
    model_name: model,
    auto_generate_prompt: false,
    max_tokens: maxTokens,
    temperature: 0.3,
    role: "worker",
    max_loops: maxLoops,
    streaming_on: false,
    dynamic_temperature_enabled: false,
    tool_call_summary: false,
    reasoning_effort: "low",
    reasoning_enabled: false,
    publish_to_marketplace: false,
    is_free: true,
  };
}

/** The web searches a round asks for, as the structured output the director's plan is held to. */
const PLAN_FORMAT = {
  type: "json_schema",
  json_schema: {
    name: "research_plan",
    strict: true,
    schema: {
      type: "object",
      properties: {
        queries: {
          type: "array",
          items: { type: "string", minLength: 3 },
          minItems: 1,
          maxItems: MAX_QUERIES_PER_ROUND,
        },
      },
      required: ["queries"],
      additionalProperties: false,
    },
  },
};

/** The director as planner: one call per round, answering with the round's search queries. */
export function plannerSpec(cfg: AdvancedResearchConfig): AgentSpec {
  return {
    ...researchAgent(
      cfg.director_agent_name,
      cfg.director_model_name,
      cfg.director_max_tokens,
      1,
      `You are ${cfg.director_agent_name}, the director of a research team. You break a research task into distinct, specific web searches for your researchers, covering what is still unknown.`,
    ),
    llm_args: { response_format: PLAN_FORMAT },
  };
}

/** The director as writer: the round's report from its researchers' findings (`director_max_loops` turns). */
export function reporterSpec(cfg: AdvancedResearchConfig): AgentSpec {
  return researchAgent(
    cfg.director_agent_name,
    cfg.director_model_name,
    cfg.director_max_tokens,
    cfg.director_max_loops,
    `You are ${cfg.director_agent_name}, the director of a research team. You write a complete, well-organised research report from your researchers' findings, citing the source URLs they give.`,
  );
}

/** Researcher `i` of a round: reads one query's search results and reports what matters for the task. */
export function workerSpec(cfg: AdvancedResearchConfig, i: number): AgentSpec {
  const name = `Research-Worker-${i + 1}`;
  return researchAgent(
    name,
    cfg.worker_model_name,
    4096,
    1,
    `You are ${name}, a web researcher. From the search results you are given, report the facts that answer your query, each with its source URL. Say plainly when the results do not answer it.`,
  );
}

export function planTask(task: string, lastReport: string | null): string {
  const base = `Plan web searches for this research task:\n${task}`;
  if (!lastReport) return `${base}\n\nAnswer with at most ${MAX_QUERIES_PER_ROUND} search queries.`;
  return `${base}\n\nThe report so far:\n${lastReport}\n\nAnswer with at most ${MAX_QUERIES_PER_ROUND} search queries for what the report still lacks.`;
}

export function workerTask(task: string, query: string, results: string): string {
  return `Research task: ${task}\nYour query: ${query}\n\n${results}\n\nReport your findings for this query.`;
}

export function reportTask(task: string, findings: { query: string; text: string }[], lastReport: string | null) {
  const sections = findings.map((f, i) => `## Findings ${i + 1}: ${f.query}\n${f.text}`).join("\n\n");
  const earlier = lastReport ? `The report so far:\n${lastReport}\n\n` : "";
  return `Research task: ${task}\n\n${earlier}${sections}\n\nWrite the research report.`;
}

/** The planned queries: distinct, non-blank, at most MAX_QUERIES_PER_ROUND; the task itself when the plan has none. */
export function plannedQueries(plan: unknown, task: string): string[] {
  let queries: unknown;
  try {
    queries = typeof plan === "string" ? (JSON.parse(plan) as { queries?: unknown })?.queries : undefined;
  } catch {
    queries = undefined;
  }
  const list = Array.isArray(queries)
    ? [...new Set(queries.filter((q): q is string => typeof q === "string").map((q) => q.trim()))].filter(Boolean)
    : [];
  return (list.length ? list : [task.slice(0, 400)]).slice(0, MAX_QUERIES_PER_ROUND);
}
