import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DataSource } from "typeorm";
import { benchEnv } from "../../../scripts/bench/stack/bench-env";
import { freePorts } from "../../../scripts/bench/stack/free-port";
import { jsonRequest } from "../../../scripts/bench/client/json-request";
import { startServiceStack, type ServiceStack, type WorkerSpec } from "../../../scripts/bench/stack/service-stack";
import type { TeardownStep } from "../../../scripts/bench/stack/teardown";
import type { JournalEntry } from "../../../scripts/llm-simulator/types";
import { createApiKey } from "../../../shared/auth/api-keys";
import { ensureUser } from "../../../shared/db/user-store";
import { createDataSource } from "../../../shared/db/data-source";
import { startThrowawayPostgres, type ThrowawayPostgres } from "./throwaway-postgres";
import { startThrowawayRedis, type ThrowawayRedis } from "./throwaway-redis";

/** The service as production runs it, on a PostgreSQL and a Redis the test may stop at will. */
export interface FaultStack {
  apiUrl: string;
  /** An API key of the test user (premium tier; the rate limits are out of reach anyway). */
  key: string;
  /** The test's own connection to the service's database, to read runs and steps. */
  ds: DataSource;
  postgres: ThrowawayPostgres;
  redis: ThrowawayRedis;
  services: ServiceStack;
  /** Where every process's log is kept (printed when a test fails). */
  logDir: string;
  /** The LLM calls the simulator received so far. */
  journal(): Promise<JournalEntry[]>;
  /** Stops everything; the log directory goes too unless `keepLogs`. */
  close(keepLogs?: boolean): Promise<void>;
}

export interface FaultStackOptions {
  /** Worker processes (default: one for the `agent` queue). */
  workers?: WorkerSpec[];
  /** Settings for the web and worker processes (e.g. short LLM timeouts). */
  env?: Record<string, string>;
}

/**
 * Starts a throw-away PostgreSQL and Redis, migrates a database, creates a key, and runs the LLM
 * simulator, the web process and the workers as child processes pointed at them. The shared
 * PostgreSQL and Redis other test runs use are never touched.
 */
export async function startFaultStack(options: FaultStackOptions = {}): Promise<FaultStack> {
  const logDir = mkdtempSync(join(tmpdir(), "apiary-faults-"));
  const steps: TeardownStep[] = [];
  const close = async (keepLogs = false) => {
    for (const step of steps.reverse()) await Promise.resolve(step()).catch(() => undefined);
    steps.length = 0;
    // Logs stay for a failed test to be read; the data directories always go.
    const remove = keepLogs ? ["pgdata", "appendonlydir"].map((d) => join(logDir, d)) : [logDir];
    for (const path of remove) rmSync(path, { recursive: true, force: true });
  };
  try {
    const [pgPort, redisPort, api, platform, simulator] = await freePorts(5);
    const [postgres, redis] = await Promise.all([
      startThrowawayPostgres(logDir, pgPort),
      startThrowawayRedis(logDir, redisPort),
    ]);
    steps.push(
      () => postgres.close(),
      () => redis.close(),
    );
    await postgres.createDatabase("apiary");
    const ds = createDataSource(postgres.url("apiary"));
    await ds.initialize();
    steps.push(() => ds.destroy());
    await ds.runMigrations({ transaction: "each" });
    const user = await ensureUser(ds, "fault-tester");
    const { key } = await createApiKey(ds, user.id, "faults", "premium");

    const env: NodeJS.ProcessEnv = {
      ...benchEnv({ api, platform, simulator }),
      DATABASE_URL: postgres.url("apiary"),
      REDIS_URL: redis.url(0),
      QUEUE_PREFIX: "{apiary-faults}",
      LOG_LEVEL: "info",
      // A run that hangs shows up as a 504 with its job id rather than as a hung test.
      SYNC_WAIT_MS: "60000",
      ...options.env,
    };
    const services = await startServiceStack(
      { api, platform, simulator },
      env,
      (name) => join(logDir, `${name}.log`),
      (step) => steps.push(step),
      options.workers,
    );
    await Promise.all(
      services.processes
        .filter((p) => p.name.startsWith("worker"))
        .map((p) => p.waitForOutput(/workers started/, 60_000)),
    );
    return {
      apiUrl: services.apiUrl,
      key,
      ds,
      postgres,
      redis,
      services,
      logDir,
      async journal() {
        const answer = await jsonRequest("GET", `${services.simulatorUrl}/_journal`);
        return answer.json as JournalEntry[];
      },
      close,
    };
  } catch (err) {
    await close(true);
    throw new Error(
      `the fault stack did not start (logs in ${logDir}): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * A fault stack for the enclosing `describe`: started before its tests, stopped after them. When a
 * test fails, the processes' logs are kept and their directory is printed.
 */
export function useFaultStack(options: FaultStackOptions = {}): () => FaultStack {
  let stack: FaultStack | undefined;
  let failed = false;
  before(async () => {
    stack = await startFaultStack(options);
  });
  afterEach(function () {
    if (this.currentTest?.state !== "failed" || !stack) return;
    failed = true;
    console.error(`    logs of the fault stack's processes: ${stack.logDir}`);
  });
  after(() => stack?.close(failed));
  return () => {
    if (!stack) throw new Error("the fault stack has not started");
    return stack;
  };
}
