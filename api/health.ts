import { pingDatabase } from "../shared/db/data-source";
import type { ApiDeps } from "./deps";

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}

/** Whether Postgres and Redis each answer within a second. */
export async function checkHealth(deps: Pick<ApiDeps, "ds" | "redis">): Promise<{ postgres: boolean; redis: boolean }> {
  const [postgres, redis] = await Promise.allSettled([
    within(pingDatabase(deps.ds), 1_000),
    within(deps.redis.ping(), 1_000),
  ]);
  return { postgres: postgres.status === "fulfilled", redis: redis.status === "fulfilled" };
}
