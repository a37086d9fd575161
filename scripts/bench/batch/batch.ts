import { startCpuWindow } from "../probes/cpu-usage";
import { machineInfo } from "../probes/machine-info";
import { parseRepOptions } from "../rep-options";
import { runStamp } from "../report/results-file";
import { finishScenario } from "../report/scenario-output";
import type { ScenarioRun } from "../scenario";
import { setUpStack } from "../stack/stack-setup";
import { withTeardown } from "../stack/teardown";
import { workersFor } from "../stack/worker-specs";
import { measurePhase, sendBatch, type BatchContext, type BatchPhase } from "./batch-measure";
import { batchProblems, renderBatchRepsTable, renderBatchTable, summarizePhase } from "./batch-report";

// Two discarded batches: enough for both workers to take jobs and get their code paths compiled.
const WARMUP_BATCHES = 2;

/**
 * The agent batch (`POST /v1/agent/batch/completions`) against its target: 100 items at 500 ms
 * simulated latency finish in under 3 s with two agent worker processes. Measures with two
 * workers, then stops one and measures again as the baseline, so the scaling shows in one run.
 * Prints the tables, writes `.bench/batch-<stamp>.json`, and exits 1 if any item failed.
 */
export const run: ScenarioRun = async (argv) => {
  const opts = parseRepOptions(argv, { reps: 5, allowOnly: false });
  const stamp = runStamp();
  const machine = machineInfo();
  return withTeardown(async (onTeardown) => {
    const setup = await setUpStack("batch", stamp, onTeardown, { workers: workersFor("agent", 2) });
    const queue = setup.watchQueue("agent");
    const ctx: BatchContext = {
      apiUrl: setup.stack.apiUrl,
      apiKey: setup.apiKey,
      queue,
      assertAlive: () => setup.stack.assertAlive(),
    };

    setup.say(`warming up: ${WARMUP_BATCHES} batch(es) with 2 workers`);
    const warmup = [];
    for (let i = 1; i <= WARMUP_BATCHES; i++) {
      const r = await sendBatch(ctx, i, `warmup-${i}`);
      ctx.assertAlive();
      await queue.waitUntilIdle(60_000);
      // A batch that fails outright at warm-up would only measure how fast the service says no.
      if (r.status !== 200)
        throw new Error(
          `warm-up batch failed: ${r.problems.join("; ")}\nlogs: ${Object.values(setup.logs).join(", ")}`,
        );
      warmup.push(r);
    }

    const endCpu = startCpuWindow();
    const phases: BatchPhase[] = [await measurePhase(ctx, 2, opts.reps, setup.say)];
    setup.say("stopping worker-agent-2 for the one-worker baseline");
    await setup.stack.stopProcess("worker-agent-2");
    phases.push(await measurePhase(ctx, 1, opts.reps, setup.say));
    const cpu = endCpu();

    // Shown fewest workers first, the way scaling reads.
    const shown = [...phases].sort((a, b) => a.workers - b.workers);
    const summaries = shown.map(summarizePhase);
    const failed = summaries.some((s) => s.failedItems + s.misplacedItems > 0);
    finishScenario(setup, {
      scenario: "batch",
      stamp,
      machine,
      options: opts,
      lines: [
        renderBatchTable(summaries, shown, machine, cpu, opts.quick),
        "",
        "per repetition:",
        renderBatchRepsTable(phases),
      ],
      problems: batchProblems(phases),
      // cpu is over both phases; per phase in phases[].cpu, per request in phases[].reps[].cpu.
      raw: { cpu, summaries, phases, warmup },
      failed,
    });
    return failed ? 1 : 0;
  });
};
