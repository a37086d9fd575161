import { parseBenchOptions } from "../bench-options";
import { warmUp, warmupWarnings } from "../client/direct-vs-service";
import { preflight } from "../client/preflight";
import { startCpuWindow } from "../probes/cpu-usage";
import { machineInfo } from "../probes/machine-info";
import { runStamp } from "../report/results-file";
import { finishScenario } from "../report/scenario-output";
import { standAlone, type ScenarioMeasure } from "../scenario";
import { setUpStack } from "../stack/stack-setup";
import { withTeardown } from "../stack/teardown";
import { RUN_WORKERS } from "../stack/worker-specs";
import { chatServiceTarget, directTarget, serviceTarget } from "../targets/agent-completion-targets";
import { CONCURRENT_SWARM, swarmDirectTarget, swarmServiceTarget } from "../targets/concurrent-swarm-targets";
import { measureOverhead, type Workload } from "./overhead-measure";
import {
  hasOverheadFailures,
  overheadHeadline,
  overheadProblems,
  renderOverheadTable,
  summarizeOverhead,
} from "./overhead-report";

/**
 * Added latency of the service over direct simulator calls, for an agent completion, an OpenAI chat
 * completion and a 3-agent ConcurrentWorkflow swarm completion, at concurrency 1, 50 and 200, with the simulator answering at once so
 * every millisecond above the direct call is the service's. Prints the table, writes
 * `.bench/overhead-<stamp>.json`, and fails (code 1) if any measured request failed.
 */
export const measure: ScenarioMeasure = async (argv) => {
  const opts = parseBenchOptions(argv);
  const stamp = runStamp();
  const machine = machineInfo();
  return withTeardown(async (onTeardown) => {
    const setup = await setUpStack("overhead", stamp, onTeardown, { workers: RUN_WORKERS });
    const { stack, apiKey, say } = setup;
    const assertAlive = () => stack.assertAlive();
    const workloads: Workload[] = [
      {
        name: "agent completion",
        ctx: {
          direct: directTarget(stack.simulatorUrl),
          service: serviceTarget(stack.apiUrl, apiKey),
          queue: setup.watchQueue("agent"),
          assertAlive,
        },
      },
      {
        name: "chat completion",
        ctx: {
          direct: directTarget(stack.simulatorUrl),
          service: chatServiceTarget(stack.apiUrl, apiKey),
          queue: setup.watchQueue("agent"),
          assertAlive,
        },
      },
      {
        name: `${CONCURRENT_SWARM.type} x${CONCURRENT_SWARM.shape.agents}`,
        ctx: {
          direct: swarmDirectTarget(stack.simulatorUrl),
          service: swarmServiceTarget(stack.apiUrl, apiKey, 0),
          queue: setup.watchQueue("swarm"),
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
    const rawFile = finishScenario(setup, {
      scenario: "overhead",
      stamp,
      machine,
      options: opts,
      lines,
      problems: [...warmup.flatMap(warmupWarnings), ...overheadProblems(rounds)],
      raw: {
        cpu,
        workloads: workloads.map((w) => ({
          name: w.name,
          direct: { url: w.ctx.direct.url, body: w.ctx.direct.body, fanOut: w.ctx.direct.fanOut ?? 1 },
          service: { url: w.ctx.service.url, body: w.ctx.service.body },
        })),
        cells,
        rounds,
        warmup,
      },
      failed,
    });
    return { code: failed ? 1 : 0, headline: overheadHeadline(cells), rawFile };
  });
};

/** `npm run bench -- overhead`. */
export const run = standAlone(measure);
