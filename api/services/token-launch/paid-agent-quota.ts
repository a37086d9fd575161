import type { EntityManager } from "typeorm";
import { config } from "../../../shared/config";
import { PlatformError } from "../../platform/platform-error";
import type { CountPaidAgent } from "./token-launch.service";

type Limits = typeof config.platform.dailyLimits;

function nextUtcMidnight(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
}

/**
 * A token launch counts as a paid agent against the user's daily limit (CONTRACT: limits). The
 * increment is conditional, inside the transaction that stores the listing, so concurrent
 * launches cannot pass the limit and a refused create gives its count back. Over the limit: the
 * spec's 429 with `currentUsage`, `limits` and `resetTime`.
 */
export function paidAgentQuota(limits: Limits = config.platform.dailyLimits): CountPaidAgent {
  return async (manager: EntityManager, userId: string) => {
    const now = new Date();
    const day = now.toISOString().slice(0, 10);
    const counted = await manager.query(
      `INSERT INTO daily_usage AS u (user_id, day, paid_agents) SELECT $1, $2::date, 1 WHERE $3::int > 0
       ON CONFLICT (user_id, day) DO UPDATE SET paid_agents = u.paid_agents + 1 WHERE u.paid_agents < $3::int
       RETURNING paid_agents`,
      [userId, day, limits.paidAgents],
    );
    if (counted.length) return;
    const [row] = await manager.query(`SELECT paid_prompts, paid_agents, free_content FROM daily_usage WHERE user_id = $1 AND day = $2::date`, [userId, day]);
    const resetTime = nextUtcMidnight(now);
    throw new PlatformError(
      429,
      "Daily limit exceeded",
      `You have reached today's limit of ${limits.paidAgents} for paidAgents; it resets at ${resetTime}`,
      {
        currentUsage: { paidPrompts: row?.paid_prompts ?? 0, paidAgents: row?.paid_agents ?? 0, freeContent: row?.free_content ?? 0, date: day },
        limits: { paidPrompts: limits.paidPrompts, paidAgents: limits.paidAgents, freeContent: limits.freeContent },
        resetTime,
      },
      "DAILY_LIMIT_EXCEEDED",
    );
  };
}
