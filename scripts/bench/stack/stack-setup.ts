import { watchQueue, type QueueWatcher } from "../probes/queue-watcher";
import { benchPath } from "../report/results-file";
import { BENCH_DATABASE, benchEnv, type BenchPorts } from "./bench-env";
import { createApiKey, ensureServices, flushRedisDb, migrateDatabase, recreateDatabase } from "./data-stores";
import { freePorts } from "./free-port";
import { startServiceStack, type ServiceStack, type WebPorts, type WorkerSpec } from "./service-stack";
import type { TeardownStep } from "./teardown";

/** A running, isolated service stack and what a scenario needs to talk to it. */
export interface StackSetup {
  env: NodeJS.ProcessEnv;
  ports: BenchPorts;
  stack: ServiceStack;
  /** A fresh API key of the benchmark user. */
  apiKey: string;
  /** Process name → log file. */
  logs: Record<string, string>;
  /** How long each step took, in ms (a slow start is worth knowing about). */
  stepsMs: Record<string, number>;
  /** Writes a progress line to stderr, prefixed with the scenario name. */
  say(line: string): void;
  /** Watches queue `name` of the stack's Redis and queue prefix; closed at teardown. */
  watchQueue(name: string): QueueWatcher;
}

/** Which processes a scenario runs, and settings it changes for all of them. */
export interface StackShape {
  /** Worker processes (default: one for the `agent` queue). */
  workers?: WorkerSpec[];
  /** Web processes beyond the first (default 0). */
  extraWebs?: number;
  /** Environment variables set for every child process, e.g. a worker concurrency. */
  env?: Record<string, string>;
  /** Run web and workers under `--cpu-prof`, their profiles written to `.bench/<scenario>-<stamp>-profiles/`. */
  profile?: boolean;
}

/**
 * Prepares an isolated environment (own database, Redis db, queue prefix and ports), migrates,
 * creates an API key and starts the simulator, the web process(es) and the workers of `shape`.
 * `scenario` and `stamp` name the log files under `.bench/`. Checking that the endpoints answer is
 * left to the scenario, which knows what a correct answer is.
 */
export async function setUpStack(
  scenario: string,
  stamp: string,
  onTeardown: (step: TeardownStep) => void,
  shape: StackShape = {},
): Promise<StackSetup> {
  const { workers, extraWebs = 0 } = shape;
  const say = (line: string) => process.stderr.write(`[${scenario}] ${line}\n`);
  const logs: Record<string, string> = {};
  const logFile = (name: string) => (logs[name] = benchPath(`${scenario}-${stamp}-${name}.log`));
  const stepsMs: Record<string, number> = {};
  const step = async <T>(name: string, what: string, fn: () => Promise<T>): Promise<T> => {
    say(`${what}…`);
    const started = performance.now();
    const value = await fn();
    stepsMs[name] = Math.round(performance.now() - started);
    return value;
  };

  const [api, platform, simulator, ...more] = await freePorts(3 + 2 * extraWebs);
  const ports: BenchPorts = { api, platform, simulator };
  const webPorts: WebPorts[] = Array.from({ length: extraWebs }, (_, i) => ({
    api: more[2 * i],
    platform: more[2 * i + 1],
  }));
  const env = { ...benchEnv(ports), ...shape.env };

  await step("ensureServices", `making sure Postgres and Redis run (database ${BENCH_DATABASE})`, () =>
    ensureServices(BENCH_DATABASE, env, logFile("ensure-services")),
  );
  await step("freshDatabase", `emptying database ${BENCH_DATABASE}`, () => recreateDatabase(env.DATABASE_URL!));
  await step("flushRedis", `flushing ${env.REDIS_URL}`, () => flushRedisDb(env.REDIS_URL!));
  await step("migrate", "running migrations", () => migrateDatabase(env, logFile("migrate")));
  const apiKey = await step("apiKey", "creating an API key", () => createApiKey("bench", env, logFile("apikey")));
  const names = (workers ?? [{ name: "worker" }]).map((w) => w.name).join(", ");
  const webs = [api, ...webPorts.map((p) => p.api)].map((p) => `:${p}`).join(" ");
  const stack = await step("startStack", `starting simulator :${simulator}, web ${webs}, ${names}`, () =>
    startServiceStack(
      ports,
      env,
      logFile,
      onTeardown,
      workers,
      webPorts,
      shape.profile ? benchPath(`${scenario}-${stamp}-profiles`) : undefined,
    ),
  );
  const watch = (name: string) => {
    const queue = watchQueue(env.REDIS_URL!, env.QUEUE_PREFIX!, name);
    onTeardown(() => queue.close());
    return queue;
  };
  return { env, ports, stack, apiKey, logs, stepsMs, say, watchQueue: watch };
}
