import { isJsonObject, type DecisionTool } from "../structured-decision";

/** Queries the first round plans at least (a deep research covers a topic from several sides). */
const FIRST_ROUND_MIN_QUERIES = 3;
/** Queries one round plans at most: what bounds a round's cost. */
const MAX_QUERIES_PER_ROUND = 6;

/** One research query and the researcher that runs it. */
export interface ResearchQuery {
  query: string;
  researcher: string;
}

/** The Query Generator's decision for one round. */
export interface QueryPlan {
  queries: ResearchQuery[];
}

const QUERY_TOOL_NAME = "plan_research_queries";

/**
 * The query tool for a round: `researcher` is an enum of the real researcher names. The first
 * round needs FIRST_ROUND_MIN_QUERIES; later rounds may plan none, which ends the research.
 */
export function queryTool(researchers: string[], firstRound: boolean): DecisionTool {
  return {
    name: QUERY_TOOL_NAME,
    description: firstRound
      ? "Plan the research: specific, distinct search queries that together cover the task, each given to a researcher."
      : "Plan follow-up research: queries for what the findings so far leave open, each given to a researcher. Plan none when the findings already answer the task.",
    parameters: {
      type: "object",
      properties: {
        queries: {
          type: "array",
          minItems: firstRound ? FIRST_ROUND_MIN_QUERIES : 0,
          maxItems: MAX_QUERIES_PER_ROUND,
          uniqueItems: true,
          items: {
            type: "object",
            properties: {
              query: { type: "string", description: "One specific research query" },
              researcher: { type: "string", enum: researchers, description: "The researcher who runs it" },
            },
            required: ["query", "researcher"],
            additionalProperties: false,
          },
        },
      },
      required: ["queries"],
      additionalProperties: false,
    },
  };
}

/** How queries are compared for repeats: trimmed, case-insensitive. */
export const queryKey = (query: string) => query.trim().toLowerCase();

/**
 * What is wrong with a round's plan, or null (the `decide` validator). `researched` holds the keys
 * of the queries earlier rounds researched: a follow-up query must be new.
 */
export function queryPlanProblem(
  researchers: string[],
  firstRound: boolean,
  value: unknown,
  researched: ReadonlySet<string> = new Set(),
): string | null {
  if (!isJsonObject(value) || !Array.isArray(value.queries)) return "'queries' must be a list of {query, researcher}";
  const queries = value.queries as unknown[];
  const min = firstRound ? FIRST_ROUND_MIN_QUERIES : 0;
  const problems: string[] = [];
  if (queries.length < min || queries.length > MAX_QUERIES_PER_ROUND)
    problems.push(`plan from ${min} to ${MAX_QUERIES_PER_ROUND} queries (got ${queries.length})`);
  const seen = new Set<string>();
  queries.forEach((item, i) => {
    if (!isJsonObject(item) || typeof item.query !== "string" || !item.query.trim()) {
      problems.push(`query ${i + 1} has no text`);
      return;
    }
    const key = queryKey(item.query);
    if (seen.has(key)) problems.push(`query ${i + 1} repeats an earlier query`);
    else if (researched.has(key)) problems.push(`query ${i + 1} was already researched in an earlier round`);
    seen.add(key);
    if (typeof item.researcher !== "string" || !researchers.includes(item.researcher))
      problems.push(`query ${i + 1} names no researcher of the team (${researchers.join(", ")})`);
  });
  return problems.length ? problems.join("; ") : null;
}

/** The Query Generator turn's readable content: one numbered line per query, with its researcher. */
export function renderQueries(queries: ResearchQuery[]): string {
  if (!queries.length) return "No further queries: the findings answer the task.";
  return queries.map((q, i) => `${i + 1}. [${q.researcher}] ${q.query}`).join("\n");
}
