import { loadavg } from "node:os";
import { parseBenchOptions } from "../bench-options";
import { warmUp, warmupWarnings } from "../client/direct-vs-service";
import { preflight } from "../client/preflight";
import { startCpuWindow } from "../probes/cpu-usage";
import { machineInfo } from "../probes/machine-info";
import { watchQueue } from "../probes/queue-watcher";
import { runStamp, writeJsonResult } from "../report/results-file";
import { standAlone, type ScenarioMeasure } from "../scenario";
import type { WorkerSpec } from "../stack/service-stack";
import { setUpStack } from "../stack/stack-setup";
import { withTeardown } from "../stack/teardown";
import { directTarget, serviceTarget } from "../targets/agent-completion-targets";
import { CONCURRENT_SWARM, swarmDirectTarget, swarmServiceTarget } from "../targets/concurrent-swarm-targets";
import { measureOverhead, type Workload } from "./overhead-measure";
import {
  hasOverheadFailures,
  overheadHeadline,
  overheadProblems,
  renderOverheadTable,
  summarizeOverhead,
} from "./overhead-report";

// The Procfile's two run workers: E5 runs in the agent worker, swarm turns in the swarm worker.
const WORKERS: WorkerSpec[] = [
  { name: "worker-agent", queues: ["agent"] },
  { name: "worker-swarm", queues: ["swarm"] },
];

/**
 * Added latency of the service over direct simulator calls, for E5 and for a 3-agent
 * ConcurrentWorkflow (E1), at concurrency 1, 50 and 200, with the simulator answering at once so
 * every millisecond above the direct call is the service's. Prints the table, writes
 * `.bench/overhead-<stamp>.json`, and fails (code 1) if any measured request failed.
 */
export const measure: ScenarioMeasure = async (argv) => {
  const opts = parseBenchOptions(argv);
  const stamp = runStamp();
  const machine = machineInfo();
  return withTeardown(async (onTeardown) => {
    const setup = await setUpStack("overhead", stamp, onTeardown, { workers: WORKERS });
    const { stack, apiKey, say } = setup;
    const assertAlive = () => stack.assertAlive();
    const queue = (name: string) => {
      const q = watchQueue(setup.env.REDIS_URL!, setup.env.QUEUE_PREFIX!, name);
      onTeardown(() => q.close());
      return q;
    };
    const workloads: Workload[] = [
      {
        name: "E5 agent",
        ctx: {
          direct: directTarget(stack.simulatorUrl),
          service: serviceTarget(stack.apiUrl, apiKey),
          queue: queue("agent"),
          assertAlive,
        },
      },
      {
        name: `${CONCURRENT_SWARM.type} x${CONCURRENT_SWARM.shape.agents}`,
        ctx: {
          direct: swarmDirectTarget(stack.simulatorUrl),
          service: swarmServiceTarget(stack.apiUrl, apiKey, 0),
          queue: queue("swarm"),
          assertAlive,
        },
      },
    ];
    say("checking every target answers…");
    for (const w of workloads) for (const t of [w.ctx.direct, w.ctx.service]) await preflight(t, stack);

    const warmup = [];
    for (const w of workloads) warmup.push(await warmUp(w.ctx, opts, (line) => say(`${w.name}: ${line}`)));
    const endCpu = startCpuWindow();
    const rounds = await measureOverhead(workloads, opts, say);
    const cpu = endCpu();
    const cells = summarizeOverhead(
      rounds,
      workloads.map((w) => w.name),
    );
    const failed = hasOverheadFailures(cells);

    const lines = [renderOverheadTable(cells, machine, opts, rounds, cpu)];
    if (failed) lines.push("", "NOT A VALID RESULT: some measured requests failed.");
    const notes = [...warmup.flatMap(warmupWarnings), ...overheadProblems(rounds)];
    if (notes.length)
      lines.push(
        "",
        "problems:",
        ...notes.map((n) => `  ${n}`),
        `  child process logs: ${Object.values(setup.logs).join(", ")}`,
      );
    const rawFile = writeJsonResult(`overhead-${stamp}.json`, {
      scenario: "overhead",
      machine,
      loadAvg1mAfter: loadavg()[0],
      cpu,
      options: opts,
      ports: setup.ports,
      setupStepsMs: setup.stepsMs,
      logs: setup.logs,
      workloads: workloads.map((w) => ({
        name: w.name,
        direct: { url: w.ctx.direct.url, body: w.ctx.direct.body, fanOut: w.ctx.direct.fanOut ?? 1 },
        service: { url: w.ctx.service.url, body: w.ctx.service.body },
      })),
      cells,
      rounds,
      warmup,
      failed,
    });
    lines.push("", `raw results: ${rawFile}`);
    process.stdout.write(`${lines.join("\n")}\n`);
    return { code: failed ? 1 : 0, headline: overheadHeadline(cells), rawFile };
  });
};

/** `npm run bench -- overhead`. */
export const run = standAlone(measure);
