import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "pg";
import { parseFlags, type ScenarioRun, UsageError } from "../scenario";
import { measureClosedLoop, type SequentialResult } from "../client/closed-loop";
import type { HttpTarget } from "../client/http-target";
import { machineInfo } from "../probes/machine-info";
import { activityBetween, readDatabaseActivity, type DatabaseActivity } from "../probes/postgres-activity";
import { RedisCommandCounter, type CommandCalls } from "../probes/redis-commandstats";
import { runStamp } from "../report/results-file";
import { finishScenario } from "../report/scenario-output";
import { startOwnRedis } from "../stack/redis-server";
import { setUpStack } from "../stack/stack-setup";
import { withTeardown } from "../stack/teardown";
import { serviceTarget } from "../targets/agent-completion-targets";
import { swarmServiceTarget } from "../targets/concurrent-swarm-targets";
import { renderRunCost, type RunCostWindow } from "./run-cost-report";

/**
 * Postgres reports a backend's statistics when it has been idle this long (PostgreSQL 15's
 * PGSTAT_IDLE_INTERVAL is 10 s): a window's counters are read after it, or they miss its last
 * second of work.
 */
const STATISTICS_SETTLE_MS = 11_000;

/**
 * What one run costs the stores, counted rather than timed, so the figures hold on a loaded
 * machine: Redis commands (by name, those run inside scripts included) and Postgres commits and
 * rows written, per single-agent run at one client and at 50, and per 3-agent ConcurrentWorkflow.
 * The stack is `npm start`'s processes from the sources (web, one worker for the agent and swarm
 * queues) against a Redis server of its own, so `INFO commandstats` counts this stack alone.
 */
export const run: ScenarioRun = async (argv) => {
  const flags = parseFlags(argv, {
    runs: { type: "string" },
    duration: { type: "string" },
    quick: { type: "boolean", default: false },
  });
  const runs = Number(flags.runs ?? (flags.quick ? 40 : 200));
  const durationS = Number(flags.duration ?? (flags.quick ? 3 : 10));
  if (!(Number.isInteger(runs) && runs > 0 && durationS > 0))
    throw new UsageError("--runs and --duration are positive");
  const stamp = runStamp();
  const machine = machineInfo();
  return withTeardown(async (onTeardown) => {
    const { url: redisUrl } = await startOwnRedis(`run-cost-${stamp}-redis`, onTeardown);
    const counter = new RedisCommandCounter(redisUrl);
    onTeardown(() => counter.close());
    await counter.whenAnswering(10_000);
    const setup = await setUpStack("run-cost", stamp, onTeardown, {
      env: { REDIS_URL: redisUrl },
      workers: [{ name: "worker", queues: ["agent", "swarm"] }],
    });
    const db = new Client({ connectionString: setup.env.DATABASE_URL });
    await db.connect();
    onTeardown(() => db.end());

    const agent = serviceTarget(setup.stack.apiUrl, setup.apiKey);
    const swarm = swarmServiceTarget(setup.stack.apiUrl, setup.apiKey, 0);
    const windows: RunCostWindow[] = [];
    const measure = async (label: string, target: HttpTarget, clients: number, how: { runs?: number; s?: number }) => {
      setup.say(`${label}…`);
      await counter.reset();
      const before = await readDatabaseActivity(db);
      const load = await measureClosedLoop([target], clients, how.s ?? 3_600, how.runs);
      const redisCalls = await counter.read();
      await sleep(STATISTICS_SETTLE_MS);
      const postgres = activityBetween(before, await readDatabaseActivity(db));
      windows.push(windowOf(label, clients, load, redisCalls, postgres));
      setup.stack.assertAlive();
    };
    await measureClosedLoop([agent], 10, 2); // warm-up: connections, prepared statements, script loads
    await sleep(STATISTICS_SETTLE_MS); // the warm-up's statistics reported before the first window
    await measure("single agent, 1 client", agent, 1, { runs });
    await measure("single agent, 50 clients", agent, 50, { s: durationS });
    await measure("3-agent ConcurrentWorkflow, 1 client", swarm, 1, { runs: Math.ceil(runs / 4) });

    const failed = windows.some((w) => w.failed > 0);
    finishScenario(setup, {
      scenario: "run-cost",
      stamp,
      machine,
      options: { runs, durationS },
      lines: [renderRunCost(windows, machine)],
      problems: windows.flatMap((w) => w.problems),
      raw: { windows },
      failed,
    });
    return failed ? 1 : 0;
  });
};

function windowOf(
  label: string,
  clients: number,
  load: SequentialResult,
  redisCalls: CommandCalls,
  postgres: DatabaseActivity,
): RunCostWindow {
  const answered = load.requests - load.non2xx - load.errors - load.badBodies;
  return {
    label,
    clients,
    runs: answered,
    failed: load.requests - answered,
    problems: load.problems.map((p) => `${label}: ${p}`),
    redisCalls,
    postgres,
  };
}
