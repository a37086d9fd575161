import { BENCH_DATABASE, benchEnv, type BenchPorts } from "./bench-env";
import { directTarget, serviceTarget } from "./e5-targets";
import { ensureServices } from "./ensure-services";
import { flushRedisDb } from "./flush-redis";
import { freePorts } from "./free-port";
import type { HttpTarget } from "./http-target";
import { createApiKey, migrateDatabase } from "./prepare-database";
import { preflight } from "./preflight";
import { benchPath } from "./results-file";
import { startServiceStack, type ServiceStack } from "./service-stack";
import type { TeardownStep } from "./teardown";

/** Everything E5 measures against, ready and checked. */
export interface E5Setup {
  env: NodeJS.ProcessEnv;
  ports: BenchPorts;
  stack: ServiceStack;
  direct: HttpTarget;
  service: HttpTarget;
  /** Process name → log file. */
  logs: Record<string, string>;
  /** How long each step took, in ms (a slow start is worth knowing about). */
  stepsMs: Record<string, number>;
}

function say(line: string): void {
  process.stderr.write(`[e5] ${line}\n`);
}

/**
 * Prepares an isolated environment (own database, Redis db, queue prefix and ports), starts the
 * simulator, web and worker, and checks both targets answer correctly once.
 */
export async function setUpE5(stamp: string, onTeardown: (step: TeardownStep) => void): Promise<E5Setup> {
  const logs: Record<string, string> = {};
  const logFile = (name: string) => (logs[name] = benchPath(`e5-${stamp}-${name}.log`));
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
  const key = await step("apiKey", "creating an API key", () => createApiKey("bench", env, logFile("apikey")));
  const stack = await step("startStack", `starting simulator :${simulator}, web :${api}, worker`, () =>
    startServiceStack(ports, env, logFile, onTeardown),
  );

  const direct = directTarget(stack.simulatorUrl);
  const service = serviceTarget(stack.apiUrl, key);
  await step("preflight", "checking both targets answer", async () => {
    await preflight(direct, stack);
    await preflight(service, stack);
  });
  return { env, ports, stack, direct, service, logs, stepsMs };
}
