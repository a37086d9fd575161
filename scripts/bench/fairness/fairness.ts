import { positive } from "../bench-options";
import { machineInfo } from "../probes/machine-info";
import { benchPath, runStamp } from "../report/results-file";
import { finishScenario } from "../report/scenario-output";
import { median } from "../report/stats";
import { textTable } from "../report/text-table";
import { parseFlags, type ScenarioRun } from "../scenario";
import { createApiKey } from "../stack/data-stores";
import { setUpStack } from "../stack/stack-setup";
import { withTeardown } from "../stack/teardown";
import { RUN_WORKERS } from "../stack/worker-specs";
import { measureRep, type FairnessRep, type ProbeRun } from "./fairness-measure";

/** The figures a repetition gives: each probe's wait beyond what the same run takes on an idle stack. */
function waits(rep: FairnessRep) {
  return {
    small: rep.small.wallMs - rep.idle.wallMs,
    bigNext: rep.bigNext.wallMs - rep.idle.wallMs,
  };
}

const ms = (value: number | null) => (value === null || Number.isNaN(value) ? "-" : `${Math.round(value)} ms`);

function renderTable(reps: FairnessRep[]): string {
  const rows = [["rep", "queued in", "small waited", "(queue)", "big's next waited", "(queue)", "small / big"]];
  for (const rep of reps) {
    const w = waits(rep);
    rows.push([
      String(rep.rep),
      ms(rep.submitMs),
      ms(w.small),
      ms(rep.small.queuedMs),
      ms(w.bigNext),
      ms(rep.bigNext.queuedMs),
      (w.small / w.bigNext).toFixed(3),
    ]);
  }
  const small = median(reps.map((r) => waits(r).small));
  const big = median(reps.map((r) => waits(r).bigNext));
  rows.push(["median", "", ms(small), "", ms(big), "", (small / big).toFixed(3)]);
  return textTable(rows);
}

function problemsOf(reps: FairnessRep[]): string[] {
  const problems: string[] = [];
  for (const rep of reps) {
    if (rep.backlogRefused) problems.push(`rep ${rep.rep}: ${rep.backlogRefused} backlog runs not accepted`);
    const probes: [string, ProbeRun][] = [
      ["small", rep.small],
      ["big's next", rep.bigNext],
      ["idle", rep.idle],
    ];
    for (const [name, probe] of probes)
      if (probe.status !== 200) problems.push(`rep ${rep.rep}: the ${name} run answered ${probe.status}`);
  }
  return problems;
}

/**
 * Fair dispatch as users run it (the Procfile's workers at their defaults): one account queues a
 * backlog beyond the agent worker's capacity, then another account's run and the first account's
 * next run are sent at the same moment. The first account's next run waits for its own backlog,
 * which is what first in, first out made every account's run wait; the other account's run should
 * wait about one round. Waits are each run's time beyond the same run on the idle stack.
 */
export const run: ScenarioRun = async (argv) => {
  const values = parseFlags(argv, {
    reps: { type: "string" },
    backlog: { type: "string" },
    latency: { type: "string" },
    quick: { type: "boolean", default: false },
  });
  const quick = values.quick === true;
  const opts = {
    reps: positive("reps", values.reps, true) ?? (quick ? 1 : 3),
    backlog: positive("backlog", values.backlog, true) ?? (quick ? 1_500 : 4_000),
    latencyMs: positive("latency", values.latency, true) ?? 5_000,
    quick,
  };
  const stamp = runStamp();
  const machine = machineInfo();
  return withTeardown(async (onTeardown) => {
    const setup = await setUpStack("fairness", stamp, onTeardown, { workers: RUN_WORKERS });
    const smallKey = await createApiKey("bench-small", setup.env, benchPath(`fairness-${stamp}-apikey-small.log`));
    const ctx = {
      apiUrl: setup.stack.apiUrl,
      bigKey: setup.apiKey,
      smallKey,
      queue: setup.watchQueue("agent"),
      backlog: opts.backlog,
      latencyMs: opts.latencyMs,
      say: setup.say,
    };
    const reps: FairnessRep[] = [];
    for (let rep = 1; rep <= opts.reps; rep++) {
      reps.push(await measureRep(ctx, rep));
      setup.stack.assertAlive();
    }
    const problems = problemsOf(reps);
    finishScenario(setup, {
      scenario: "fairness",
      stamp,
      machine,
      options: opts,
      lines: [
        `fairness: ${opts.backlog} runs of one account queued (${opts.latencyMs} ms per LLM call), then one run of`,
        "another account and the first account's next run at the same moment; waits beyond the idle run:",
        renderTable(reps),
      ],
      problems,
      raw: { reps },
      failed: problems.length > 0,
    });
    return problems.length ? 1 : 0;
  });
};
