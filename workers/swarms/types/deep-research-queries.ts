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

/** A round's plan split into the queries to research and the repeats left out. */
export interface SortedPlan {
  /** New queries, trimmed, each once, in plan order. */
  queries: ResearchQuery[];
  /** Queries planned before (in an earlier round or earlier in this plan), as the plan wrote them, trimmed. */
  repeats: string[];
}

/**
 * The queries of a valid plan (`queryPlanProblem` found nothing wrong) to research: a query
 * planned earlier in the plan or researched in an earlier round (`researched` holds their keys) is
 * left out, since researching it again would only pay for the same finding twice.
 */
export function sortPlan(plan: QueryPlan, researched: ReadonlySet<string> = new Set()): SortedPlan {
  const seen = new Set(researched);
  const sorted: SortedPlan = { queries: [], repeats: [] };
  for (const { query, researcher } of plan.queries) {
    const key = queryKey(query);
    if (seen.has(key)) sorted.repeats.push(query.trim());
    else sorted.queries.push({ query: query.trim(), researcher });
    seen.add(key);
  }
  return sorted;
}

/**
 * What is wrong with a round's plan, or null (the `decide` validator). `researched` holds the keys
 * of the queries earlier rounds researched. Repeats are not wrong (`sortPlan` leaves them out):
 * the bounds count new queries (the first round needs FIRST_ROUND_MIN_QUERIES, no round researches
 * more than MAX_QUERIES_PER_ROUND); every query needs text, and every new one a researcher of the team.
 */
export function queryPlanProblem(
  researchers: string[],
  firstRound: boolean,
  value: unknown,
  researched: ReadonlySet<string> = new Set(),
): string | null {
  if (!isJsonObject(value) || !Array.isArray(value.queries)) return "'queries' must be a list of {query, researcher}";
  const queries = value.queries as unknown[];
  const problems: string[] = [];
  const seen = new Set(researched);
  let fresh = 0;
  queries.forEach((item, i) => {
    if (!isJsonObject(item) || typeof item.query !== "string" || !item.query.trim()) {
      problems.push(`query ${i + 1} has no text`);
      return;
    }
    const key = queryKey(item.query);
    if (seen.has(key)) return;
    seen.add(key);
    fresh++;
    if (typeof item.researcher !== "string" || !researchers.includes(item.researcher))
      problems.push(`query ${i + 1} names no researcher of the team (${researchers.join(", ")})`);
  });
  const min = firstRound ? FIRST_ROUND_MIN_QUERIES : 0;
  if (fresh < min || fresh > MAX_QUERIES_PER_ROUND)
    problems.unshift(`plan from ${min} to ${MAX_QUERIES_PER_ROUND} new queries (got ${fresh})`);
  return problems.length ? problems.join("; ") : null;
}

/**
 * The Query Generator turn's readable content: one numbered line per query, with its researcher,
 * and a line naming the repeats left out; or the end of the research.
 */
export function renderQueries({ queries, repeats }: SortedPlan): string {
  const lines = queries.map((q, i) => `${i + 1}. [${q.researcher}] ${q.query}`);
  if (!repeats.length) return lines.length ? lines.join("\n") : "No further queries: the findings answer the task.";
  if (!lines.length) lines.push("No new queries: the research ends.");
  lines.push(`Left out, already planned or researched: ${repeats.join("; ")}`);
  return lines.join("\n");
}
