import { BENCH_DATABASE, benchEnv, type BenchPorts } from "./bench-env";
import { ensureServices } from "./ensure-services";
import { flushRedisDb } from "./flush-redis";
import { freePorts } from "./free-port";
import { createApiKey, migrateDatabase } from "./prepare-database";
import { benchPath } from "./results-file";
import { startServiceStack, type ServiceStack, type WorkerSpec } from "./service-stack";
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
}

/**
 * Prepares an isolated environment (own database, Redis db, queue prefix and ports), migrates,
 * creates an API key and starts the simulator, web and `workers`. `scenario` and `stamp` name the
 * log files under `.bench/`. Checking that the endpoints answer is left to the scenario, which
 * knows what a correct answer is.
 */
export async function setUpStack(
  scenario: string,
  stamp: string,
  onTeardown: (step: TeardownStep) => void,
  workers?: WorkerSpec[],
): Promise<StackSetup> {
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

  const [api, platform, simulator] = await freePorts(3);
  const ports: BenchPorts = { api, platform, simulator };
  const env = benchEnv(ports);

  await step("ensureServices", `making sure Postgres and Redis run (database ${BENCH_DATABASE})`, () =>
    ensureServices(BENCH_DATABASE, env, logFile("ensure-services")),
  );
  await step("flushRedis", `flushing ${env.REDIS_URL}`, () => flushRedisDb(env.REDIS_URL!));
  await step("migrate", "running migrations", () => migrateDatabase(env, logFile("migrate")));
  const apiKey = await step("apiKey", "creating an API key", () => createApiKey("bench", env, logFile("apikey")));
  const names = (workers ?? [{ name: "worker" }]).map((w) => w.name).join(", ");
  const stack = await step("startStack", `starting simulator :${simulator}, web :${api}, ${names}`, () =>
    startServiceStack(ports, env, logFile, onTeardown, workers),
  );
  return { env, ports, stack, apiKey, logs, stepsMs, say };
}
