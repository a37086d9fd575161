import type { DataSource } from "typeorm";
import { sql } from "./sql";

/**
 * Every agent spec of an account's runs: a request's `agent_config` and each of its `agents`,
 * whatever the run's kind (agent and swarm completions, their batch items, which are runs of their own, and any
 * other kind that takes agents the same way; batch parents and token launches hold none). A spec's
 * identity is its JSON with null fields and the service-set `published_prompt_id` left out: jsonb
 * equality ignores key order, so the same configuration sent twice in another order, or with a
 * null spelled out, is one configuration. Tasks, budgets and everything else about a call are not
 * part of it.
 */
const USED_SPECS = `
  WITH used AS (
    SELECT a.spec, r.queued_at
      FROM runs r CROSS JOIN LATERAL jsonb_array_elements(
             CASE WHEN jsonb_typeof(r.request->'agents') = 'array' THEN r.request->'agents' ELSE '[]'::jsonb END
             || CASE WHEN jsonb_typeof(r.request->'agent_config') = 'object'
                     THEN jsonb_build_array(r.request->'agent_config') ELSE '[]'::jsonb END
           ) AS a(spec)
     WHERE r.user_id = $1 AND jsonb_typeof(a.spec) = 'object'
  ), configs AS (
    SELECT jsonb_strip_nulls(spec) - 'published_prompt_id' AS spec, max(queued_at) AS last_used_at
      FROM used GROUP BY 1
  )`;

/**
 * The account's distinct agent configurations, most recently used first, at most `limit` of them,
 * and how many there are in all. One scan of the account's runs (`runs_user_queued_idx`); the
 * grouping happens in Postgres, so only `limit` specs leave it.
 */
export async function usedAgentConfigs(
  ds: DataSource,
  userId: string,
  limit: number,
): Promise<{ total: number; specs: Record<string, unknown>[] }> {
  const rows = await sql<{ spec: Record<string, unknown>; total: number }>(
    ds,
    `${USED_SPECS}
     SELECT spec, count(*) OVER ()::int AS total
       FROM configs ORDER BY last_used_at DESC, spec::text LIMIT $2`,
    [userId, limit],
  );
  return { total: rows[0]?.total ?? 0, specs: rows.map((row) => row.spec) };
}

/** How many distinct agent configurations the account has run (the same identity as above). */
export async function countUsedAgentConfigs(ds: DataSource, userId: string): Promise<number> {
  const [row] = await sql<{ total: number }>(ds, `${USED_SPECS} SELECT count(*)::int AS total FROM configs`, [userId]);
  return row.total;
}
