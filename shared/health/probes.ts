import type { DataSource } from "typeorm";
import { pendingMigrations } from "../db/pending-migrations";
import { sql } from "../db/sql";
import type { RedisClient } from "../queues/redis";

/** How long a readiness probe waits for Postgres or Redis: a probe must answer before its caller's timeout. */
const PROBE_TIMEOUT_MS = 1_000;

/** Whether `work` settles successfully within `ms`; never rejects. */
async function within(work: () => Promise<unknown>, ms = PROBE_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work().then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ])
    .catch(() => false)
    .finally(() => clearTimeout(timer));
}

/** How long a probe's answer is reused: probes need no key, so a flood of them must not reach Postgres or Redis. */
const PROBE_REUSE_MS = 1_000;

/** One probe of a kind per target at a time and per second; every caller in between shares its answer. */
function shared<T extends object>(probe: (target: T) => Promise<boolean>): (target: T) => Promise<boolean> {
  const recent = new WeakMap<T, { at: number; answer: Promise<boolean> }>();
  return (target) => {
    const hit = recent.get(target);
    if (hit && Date.now() - hit.at < PROBE_REUSE_MS) return hit.answer;
    const answer = probe(target);
    recent.set(target, { at: Date.now(), answer });
    return answer;
  };
}

/** Whether Postgres answers a trivial query within a second. */
export const postgresAnswers = shared((ds: DataSource) => within(() => sql(ds, "SELECT 1")));

/** Whether every migration this code knows has been applied (`false` too when Postgres does not answer). */
export function migrationsApplied(ds: DataSource): Promise<boolean> {
  return within(async () => {
    if ((await pendingMigrations(ds)).length) throw new Error("migrations pending");
  });
}

/**
 * Whether Redis answers a PING within a second. The fail-fast clients refuse commands until they
 * are connected (no offline queue), so a probe made just after start waits for the connection,
 * within the same second, instead of failing at once.
 */
export const redisAnswers = shared(async (client: RedisClient): Promise<boolean> => {
  let onReady: (() => void) | undefined;
  try {
    return await within(async () => {
      if (client.status !== "ready") await new Promise<void>((resolve) => client.once("ready", (onReady = resolve)));
      await client.ping();
    });
  } finally {
    // A probe that timed out while Redis was down leaves no listener behind (one per probe would pile up).
    if (onReady) client.off("ready", onReady);
  }
});

/** What a readiness probe found: each check `true` when it passed. */
export type Checks = Record<string, boolean>;

/** A probe's 503 body: `detail` opens with `lead` and names the checks that failed. */
export function checksFailedBody(checks: Checks, lead: string): Record<string, unknown> {
  const failing = Object.keys(checks).filter((name) => !checks[name]);
  return {
    status: "unavailable",
    detail: `${lead}: ${failing.join(", ")}`,
    code: "SERVICE_UNAVAILABLE",
    status_code: 503,
    checks,
  };
}

/** The `/readyz` answer for `checks`: 200 when all passed, else 503 naming those that did not. */
export function readinessAnswer(checks: Checks): { status: 200 | 503; body: Record<string, unknown> } {
  if (Object.values(checks).every(Boolean)) return { status: 200, body: { status: "ready", checks } };
  return { status: 503, body: checksFailedBody(checks, "Not ready") };
}
