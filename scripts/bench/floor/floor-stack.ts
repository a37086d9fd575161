import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { postmasterPid } from "../deployed/deployed-stack";
import { benchPath } from "../report/results-file";
import { recreateDatabase, dropDatabase } from "../stack/data-stores";
import { freePorts } from "../stack/free-port";
import { waitForHttpOk } from "../stack/http-ready";
import { nodeTsx, startProcess, type ManagedProcess } from "../stack/managed-process";
import { startOwnRedis } from "../stack/redis-server";
import type { TeardownStep } from "../stack/teardown";
import { createFloorSchema } from "./floor-schema";
import type { FloorSubject } from "./floor-subject";
import type { FloorVariant } from "./floor-variants";

const START_TIMEOUT_MS = 60_000;
const IDLE_POLL_MS = 20;

/**
 * Starts one floor variant: a Redis server and a fresh database of its own (the floor's minimal
 * run table), its web process and one worker process, production mode; `profile` runs both under
 * `--cpu-prof` (profiles written at teardown).
 */
export async function startFloorStack(
  variant: FloorVariant,
  simulatorUrl: string,
  stamp: string,
  onTeardown: (step: TeardownStep) => void,
  profile: boolean,
): Promise<FloorSubject> {
  const log = (name: string) => benchPath(`floor-${stamp}-${variant.label}-${name}`);
  const redis = await startOwnRedis(`floor-${stamp}-${variant.label}-redis`, onTeardown);
  const databaseUrl = `postgres://apiary:apiary@127.0.0.1:5432/apiary_bench_${variant.label.replace("-", "_")}_${process.pid}`;
  await recreateDatabase(databaseUrl);
  onTeardown(() => dropDatabase(databaseUrl));
  await createFloorSchema(databaseUrl);

  const [port] = await freePorts(1);
  const apiKey = randomBytes(16).toString("hex");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    LLM_BASE_URL: `${simulatorUrl}/v1`,
    FLOOR_QUEUE: variant.queue,
    FLOOR_LLM: variant.llm,
    FLOOR_API_KEY: apiKey,
  };
  const command = (entry: string) => {
    const argv = nodeTsx(`scripts/bench/floor/${entry}.ts`);
    return profile ? [argv[0], "--cpu-prof", `--cpu-prof-dir=${log("profiles")}`, ...argv.slice(1)] : argv;
  };
  const processes: ManagedProcess[] = [
    startProcess(`${variant.label}-web`, command("floor-web"), env, log("web.log")),
    startProcess(`${variant.label}-worker`, command("floor-worker"), env, log("worker.log")),
  ];
  onTeardown(async () => {
    await Promise.all(processes.map((p) => p.stop()));
  });
  const dead = () => {
    const gone = processes.find((p) => p.exitStatus());
    return gone ? `${gone.name} exited; see ${gone.logFile}:\n${gone.tail()}` : null;
  };
  const apiUrl = `http://127.0.0.1:${port}`;
  await waitForHttpOk(`${apiUrl}/health`, START_TIMEOUT_MS, dead);
  await processes[1].waitForOutput(/floor worker ready/, START_TIMEOUT_MS);

  const counter = new Client({ connectionString: databaseUrl });
  await counter.connect();
  onTeardown(() => counter.end());
  const count = async (where: string) =>
    (await counter.query<{ n: number }>(`SELECT count(*)::int AS n FROM runs WHERE ${where}`)).rows[0].n;
  return {
    label: variant.label,
    describe: `${variant.label}: ${variant.describe} (scripts/bench/floor/, minimal run table)`,
    apiUrl,
    apiKey,
    pids: {
      node: { web: processes[0].pid!, worker: processes[1].pid! },
      postmaster: await postmasterPid(databaseUrl),
      database: new URL(databaseUrl).pathname.slice(1),
      redis: redis.process.pid!,
    },
    finishedRuns: () => count("status = 'succeeded'"),
    async waitUntilIdle(timeoutMs) {
      const started = performance.now();
      for (;;) {
        const open = await count("status <> 'succeeded'");
        if (open === 0) return;
        if (performance.now() - started > timeoutMs) throw new Error(`${variant.label}: ${open} runs still open`);
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      }
    },
    assertAlive() {
      const reason = dead();
      if (reason) throw new Error(reason);
    },
  };
}
