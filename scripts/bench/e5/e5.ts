import { loadavg } from "node:os";
import { parseBenchOptions } from "../bench-options";
import { warmUp, warmupWarnings } from "../client/direct-vs-service";
import { startCpuWindow } from "../probes/cpu-usage";
import { machineInfo } from "../probes/machine-info";
import { runStamp } from "../report/results-file";
import { finishScenario } from "../report/scenario-output";
import type { ScenarioRun } from "../scenario";
import { withTeardown } from "../stack/teardown";
import { measureRounds } from "./e5-measure";
import { failureDetails, hasFailures, renderAgentTable, renderRoundsTable, summarize } from "./e5-report";
import { setUpAgentStack } from "./e5-setup";

/**
 * The agent completion (`POST /v1/agent/completions`): the same LLM call measured in one run directly against the
 * LLM simulator and through the whole service (web → Postgres → BullMQ → worker → simulator →
 * Postgres → web). Prints the table to stdout (progress goes to stderr), writes the raw numbers to
 * `.bench/e5-<stamp>.json`, and exits 1 if any measured request failed.
 */
export const run: ScenarioRun = async (argv) => {
  const opts = parseBenchOptions(argv);
  const stamp = runStamp();
  // Taken before anything starts, so its load average shows what else was running on the machine.
  const machine = machineInfo();
  return withTeardown(async (onTeardown) => {
    const setup = await setUpAgentStack(stamp, onTeardown);
    const queue = setup.watchQueue("agent");
    const ctx = { direct: setup.direct, service: setup.service, queue, assertAlive: () => setup.stack.assertAlive() };

    const warmup = await warmUp(ctx, opts, setup.say);
    // Warm-up is left out: the CPU figures describe the windows the table's numbers come from.
    const endCpu = startCpuWindow();
    const rounds = await measureRounds(ctx, opts, setup.say);
    const cpu = endCpu();
    const loadAfter = loadavg()[0];
    const summary = summarize(rounds);
    const failed = hasFailures(summary);

    const lines = [renderAgentTable(summary, machine, loadAfter, opts, { overall: cpu, rounds })];
    // One round: the header's CPU line already is that round's.
    if (rounds.length > 1)
      lines.push(
        "",
        "per round (c=1 from the hrtime loop, ms; steal and busy over the round, max = its worst run):",
        renderRoundsTable(rounds),
      );
    if (failed)
      lines.push("", "NOT A VALID RESULT: some measured requests failed; req/s above counts failed answers too.");
    finishScenario(setup, {
      scenario: "e5",
      stamp,
      machine,
      options: opts,
      lines,
      problems: [...warmupWarnings(warmup), ...failureDetails(rounds)],
      raw: {
        // The load the table shows, not one taken after the printing.
        loadAvg1mAfter: loadAfter,
        // Over all measured rounds; per round and per run in rounds[].cpu / rounds[].cpuByRun.
        cpu,
        targets: {
          direct: { url: setup.direct.url, body: setup.direct.body },
          service: { url: setup.service.url, body: setup.service.body },
        },
        summary,
        rounds,
        warmup,
      },
      failed,
    });
    return failed ? 1 : 0;
  });
};
