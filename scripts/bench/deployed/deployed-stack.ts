import { measureCommitLatency, type CommitLatency } from "../probes/commit-latency";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import Redis from "ioredis";
import { Client } from "pg";
import { readProcfile } from "../../start/procfile";
import { watchQueue, type QueueWatcher } from "../probes/queue-watcher";
import { benchPath } from "../report/results-file";
import { unreachableRateLimits } from "../stack/bench-env";
import { deleteRedisKeys, dropDatabase, recreateDatabase } from "../stack/data-stores";
import { freePorts } from "../stack/free-port";
import { waitForHttpOk } from "../stack/http-ready";
import { runToCompletion, startProcess, type ManagedProcess } from "../stack/managed-process";
import type { TeardownStep } from "../stack/teardown";
import type { Checkout } from "./checkouts";
import type { StackPids } from "../probes/cpu-account";
import { parentPid, visiblePid } from "../probes/proc-reader";
import { deployedProcesses, metricsPortCount } from "./procfile-commands";

/** One checkout's processes, started as its Procfile starts them, and what the scenario reads of them. */
export interface DeployedStack {
  checkout: Checkout;
  apiUrl: string;
  apiKey: string;
  processes: ManagedProcess[];
  pids: StackPids;
  /** The environment every process got (secrets left out), for the raw results. */
  envShown: Record<string, string>;
  queues: { agent: QueueWatcher; swarm: QueueWatcher };
  /**
   * Runs of `kind` that succeeded, from the stack's own database: the denominator of CPU per run,
   * so a stack that fails its runs cheaply cannot look cheaper (its failed answers count as failures).
   */
  finishedRuns(kind: "agent" | "swarm"): Promise<number>;
  /** Durable commits timed on the stack's database (`measureCommitLatency`). */
  commitLatency(): Promise<CommitLatency>;
  /** Throws if any of its processes has exited. */
  assertAlive(): void;
}

// Each stack's Redis database (the tests use 1 and 6–14, the other scenarios 2). Its keys all open
// with its queue prefix, which, like its Postgres database, carries this benchmark process's pid:
// two benchmark runs at once (a deployed and a peers run, or two deployed runs) never share them.
const REDIS_DB: Record<string, number> = { current: 3, baseline: 4, peers: 5 };
const RUN_TAG = String(process.pid);
const START_TIMEOUT_MS = 60_000;
const SECRET_NAMES = new Set(["SECRETS_KEY", "ADMIN_PASSWORD"]);

/**
 * What a deployment must set and nothing else: production mode with its own secrets, its own
 * database, Redis database and queue prefix, its ports, and the LLM provider (the benchmark's
 * simulator). The benchmark's one deviation from the defaults: the per-key rate limits and the
 * account's daily ceilings are raised out of reach (the limiter still counts every request).
 * No LOG_LEVEL, concurrency or pool setting: those keep their defaults, as users run them.
 */
function deploymentEnv(
  label: string,
  ports: { api: number; platform: number },
  simulatorUrl: string,
  redisUrl = `redis://127.0.0.1:6379/${REDIS_DB[label]}`,
) {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    NODE_ENV: "production",
    SECRETS_KEY: randomBytes(24).toString("hex"),
    ADMIN_PASSWORD: randomBytes(12).toString("hex"),
    DATABASE_URL: `postgres://apiary:apiary@127.0.0.1:5432/apiary_bench_${label}_${RUN_TAG}`,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `{apiary-bench-${label}-${RUN_TAG}}`,
    PORT: String(ports.api),
    PLATFORM_PORT: String(ports.platform),
    LLM_BASE_URL: `${simulatorUrl}/v1`,
    LLM_API_KEY: "sim",
    LLM_SIMULATOR: "true",
    ...unreachableRateLimits(),
  };
}

/**
 * The postmaster's pid as this machine's /proc shows it. Postgres answers with its own pid
 * namespace's pids, which are another process's (or none) when it runs in a container.
 */
export async function postmasterPid(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return parentPid(visiblePid(rows[0].pid, "postgres"));
  } finally {
    await client.end();
  }
}

/** redis-server's pid as this machine's /proc shows it (see `postmasterPid`). */
async function redisPid(url: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info("server");
    const m = /^process_id:(\d+)/m.exec(info);
    if (!m) throw new Error("redis INFO server has no process_id");
    return visiblePid(Number(m[1]), "redis-server");
  } finally {
    redis.disconnect();
  }
}

/**
 * Gives the checkout its own fresh database and Redis key prefix (both dropped at teardown), runs the Procfile's `release`, creates the
 * benchmark's key with the checkout's own CLI, starts every other Procfile process from the
 * checkout's dist/ and waits until the web process and every worker answer /health. `redisUrl`
 * puts it on another Redis than the shared server's database for its label (a server of its own).
 */
export async function startDeployedStack(
  checkout: Checkout,
  simulatorUrl: string,
  stamp: string,
  say: (line: string) => void,
  onTeardown: (step: TeardownStep) => void,
  profile = false,
  redisUrl?: string,
): Promise<DeployedStack> {
  const { label, dir } = checkout;
  const log = (name: string) => benchPath(`deployed-${stamp}-${label}-${name}.log`);
  const types = readProcfile(join(dir, "Procfile"));
  const [api, platform, ...metricsPorts] = await freePorts(2 + metricsPortCount(types));
  const plan = deployedProcesses(types, process.execPath, metricsPorts);
  const env = deploymentEnv(label, { api, platform }, simulatorUrl, redisUrl);
  // Node refuses --cpu-prof in NODE_OPTIONS; a profile is written when its process exits (teardown's SIGTERM).
  const profiled = (argv: string[]) =>
    profile
      ? [argv[0], "--cpu-prof", `--cpu-prof-dir=${benchPath(`deployed-${stamp}-${label}-profiles`)}`, ...argv.slice(1)]
      : argv;

  say(
    `${label}: fresh database ${env.DATABASE_URL.split("/").pop()} and key prefix ${env.QUEUE_PREFIX} in ${env.REDIS_URL}, release (${plan.release.argv.slice(1).join(" ")})`,
  );
  await recreateDatabase(env.DATABASE_URL);
  await deleteRedisKeys(env.REDIS_URL, env.QUEUE_PREFIX);
  // Registered before the processes' stop, so it runs after it (teardown runs in reverse).
  onTeardown(async () => {
    await dropDatabase(env.DATABASE_URL);
    await deleteRedisKeys(env.REDIS_URL, env.QUEUE_PREFIX);
  });
  await runToCompletion("release", plan.release.argv, env, log("release"), 120_000, undefined, dir);
  const keyOut = await runToCompletion(
    "apikey",
    [process.execPath, "dist/scripts/apikey.js", "create", "--user", "bench"],
    env,
    log("apikey"),
    60_000,
    undefined,
    dir,
  );
  const apiKey = keyOut.trim().split("\n").at(-1)?.trim() ?? "";
  if (!apiKey || /\s/.test(apiKey)) throw new Error(`${label}: apikey printed no key on its last line:\n${keyOut}`);

  const processes: ManagedProcess[] = [];
  onTeardown(async () => {
    await Promise.all(processes.map((p) => p.stop()));
  });
  say(`${label}: starting ${plan.processes.map((p) => p.name).join(", ")} (web :${api})`);
  for (const p of plan.processes)
    processes.push(startProcess(`${label}-${p.name}`, profiled(p.argv), env, log(p.name), undefined, dir));
  const dead = () => {
    for (const p of processes) {
      const s = p.exitStatus();
      if (s) return `${p.name} exited (${s.signal ?? `code ${s.code}`}); see ${p.logFile}:\n${p.tail()}`;
    }
    return null;
  };
  const apiUrl = `http://127.0.0.1:${api}`;
  await waitForHttpOk(`${apiUrl}/health`, START_TIMEOUT_MS, dead);
  for (const port of metricsPorts) await waitForHttpOk(`http://127.0.0.1:${port}/health`, START_TIMEOUT_MS, dead);

  const counter = new Client({ connectionString: env.DATABASE_URL });
  await counter.connect();
  const queues = {
    agent: watchQueue(env.REDIS_URL, env.QUEUE_PREFIX, "agent"),
    swarm: watchQueue(env.REDIS_URL, env.QUEUE_PREFIX, "swarm"),
  };
  onTeardown(async () => {
    await Promise.all([counter.end(), queues.agent.close(), queues.swarm.close()]);
  });
  const node: Record<string, number> = {};
  for (const [i, p] of plan.processes.entries()) if (processes[i].pid !== undefined) node[p.name] = processes[i].pid!;
  const database = new URL(env.DATABASE_URL).pathname.slice(1);
  return {
    checkout,
    apiUrl,
    apiKey,
    processes,
    pids: { node, postmaster: await postmasterPid(env.DATABASE_URL), database, redis: await redisPid(env.REDIS_URL) },
    envShown: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, SECRET_NAMES.has(k) ? "(random)" : v])),
    queues,
    async finishedRuns(kind) {
      const { rows } = await counter.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM runs WHERE kind = $1 AND status = 'succeeded'",
        [kind],
      );
      return rows[0].n;
    },
    commitLatency: () => measureCommitLatency(counter),
    assertAlive() {
      const reason = dead();
      if (reason) throw new Error(reason);
    },
  };
}
