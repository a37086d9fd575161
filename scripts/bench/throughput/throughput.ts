import { parseBenchOptions } from "../bench-options";
import { measureClosedLoop } from "../client/closed-loop";
import { preflight } from "../client/preflight";
import { startCpuWindow } from "../probes/cpu-usage";
import { machineInfo } from "../probes/machine-info";
import { runStamp } from "../report/results-file";
import { finishScenario } from "../report/scenario-output";
import { standAlone, type ScenarioMeasure } from "../scenario";
import { setUpStack } from "../stack/stack-setup";
import { withTeardown } from "../stack/teardown";
import { workersFor } from "../stack/worker-specs";
import { serviceTarget } from "../targets/agent-completion-targets";
import {
  measureThroughputPhase,
  THROUGHPUT_CONCURRENCY,
  type ThroughputContext,
  type ThroughputPhase,
} from "./throughput-measure";
import {
  renderThroughputTable,
  summarizeThroughput,
  throughputHeadline,
  throughputProblems,
} from "./throughput-report";

const MAX_WORKERS = 4;
/**
 * Postgres connections per process. Six processes at the default 20 can ask for 120, above
 * Postgres's default `max_connections` (100), and requests then fail with 500 ("remaining
 * connection slots are reserved"): a deployment has to keep processes x DATABASE_POOL_SIZE under
 * that limit too. 10 is far more than one process uses at this load (a statement takes ~1 ms).
 */
const POOL_SIZE = "10";

/**
 * Scale-out: agent completions per second at zero simulated latency with 4, 2 and 1 agent worker
 * processes behind one web process, and with 2 web processes (the client alternating between
 * their ports) in front of 4 workers. One stack: it starts with everything and stops processes
 * between rows, so every row runs against the same database, Redis and warm code. The baseline is
 * 1 web and 1 worker. Prints the table, writes `.bench/throughput-<stamp>.json`, fails on errors.
 */
export const measure: ScenarioMeasure = async (argv) => {
  const opts = parseBenchOptions(argv);
  const stamp = runStamp();
  const machine = machineInfo();
  return withTeardown(async (onTeardown) => {
    const setup = await setUpStack("throughput", stamp, onTeardown, {
      workers: workersFor("agent", MAX_WORKERS),
      extraWebs: 1,
      env: { DATABASE_POOL_SIZE: POOL_SIZE },
    });
    const { stack, say } = setup;
    const queue = setup.watchQueue("agent");
    const ctx: ThroughputContext = { queue, processes: stack.processes, assertAlive: () => stack.assertAlive() };
    const [first, second] = stack.apiUrls.map((url) => serviceTarget(url, setup.apiKey));
    say("checking both web processes answer…");
    for (const t of [first, second]) await preflight(t, stack);

    say(`warming up: ${opts.warmupS} s at c=${THROUGHPUT_CONCURRENCY} over both web processes`);
    const warmup = await measureClosedLoop([first, second], THROUGHPUT_CONCURRENCY, opts.warmupS);
    await queue.waitUntilIdle(60_000);

    const endCpu = startCpuWindow();
    const phases: ThroughputPhase[] = [];
    const phase = async (webs: number, workers: number) =>
      phases.push(
        await measureThroughputPhase(ctx, webs === 2 ? [first, second] : [first], { webs, workers }, opts, say),
      );
    await phase(2, 4);
    await stack.stopProcess("web-2");
    await phase(1, 4);
    await Promise.all([stack.stopProcess("worker-agent-4"), stack.stopProcess("worker-agent-3")]);
    await phase(1, 2);
    await stack.stopProcess("worker-agent-2");
    await phase(1, 1);
    const cpu = endCpu();

    const summaries = summarizeThroughput(phases);
    const failed = summaries.some((s) => s.failures > 0);
    const problems = throughputProblems(phases);
    if (warmup.problems.length) problems.unshift(`warm-up: ${warmup.problems.join("; ")}`);
    const rawFile = finishScenario(setup, {
      scenario: "throughput",
      stamp,
      machine,
      options: opts,
      lines: [renderThroughputTable(summaries, phases, machine, opts, cpu)],
      problems,
      raw: { cpu, concurrency: THROUGHPUT_CONCURRENCY, apiUrls: stack.apiUrls, summaries, phases, warmup },
      failed,
    });
    return { code: failed ? 1 : 0, headline: throughputHeadline(summaries, phases), rawFile };
  });
};

/** `npm run bench -- throughput`. */
export const run = standAlone(measure);
