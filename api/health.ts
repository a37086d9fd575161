import { migrationsApplied, postgresAnswers, redisAnswers, type Checks } from "../shared/health/probes";
import { isShuttingDown } from "../shared/shutdown";
import type { ApiDeps } from "./deps";

/** Whether Postgres and Redis each answer within a second (`GET /health`, the hosted API's check). */
export async function checkHealth(deps: Pick<ApiDeps, "ds" | "redis">): Promise<{ postgres: boolean; redis: boolean }> {
  const [postgres, redis] = await Promise.all([postgresAnswers(deps.ds), redisAnswers(deps.redis)]);
  return { postgres, redis };
}

/**
 * Whether the web process can serve a request (`GET /readyz`): Postgres and Redis answer, the
 * schema is the one this code expects, and the process is not draining after SIGTERM.
 */
export async function checkReadiness(deps: Pick<ApiDeps, "ds" | "redis">): Promise<Checks> {
  const [health, migrations] = await Promise.all([checkHealth(deps), migrationsApplied(deps.ds)]);
  return { ...health, migrations, serving: !isShuttingDown() };
}
