import { loadavg } from "node:os";
import { measureSequential } from "../client/closed-loop";
import { startCpuWindow } from "../probes/cpu-usage";
import { machineInfo } from "../probes/machine-info";
import { cpuHeaderLine } from "../report/cpu-cells";
import { benchPath, runStamp, writeJsonResult } from "../report/results-file";
import type { ScenarioRun } from "../scenario";
import { ensureServices } from "../stack/data-stores";
import { startSimulatorProcess } from "../stack/simulator-process";
import { withTeardown } from "../stack/teardown";
import { serviceTarget } from "../targets/agent-completion-targets";
import { measureFloorRounds, warmUp } from "./floor-measure";
import { parseFloorOptions } from "./floor-options";
import { renderFloorTable, renderFloorWindows, summarizeSubject } from "./floor-report";
import { startFloorStack } from "./floor-stack";
import type { FloorSubject } from "./floor-subject";
import { FLOOR_VARIANTS } from "./floor-variants";
import { startRealStack } from "./real-stack";

/** Sends one request and throws unless it is answered well: a broken subject would only measure how fast it fails. */
async function checkAnswers(subject: FloorSubject): Promise<void> {
  const result = await measureSequential(
    { ...serviceTarget(subject.apiUrl, subject.apiKey), name: subject.label },
    Infinity,
    1,
  );
  subject.assertAlive();
  if (result.latencyMs.count !== 1)
    throw new Error(`${subject.label}: the first request failed: ${result.problems[0] ?? "no answer"}`);
}

/**
 * The design's floor: a minimal implementation of the run spine's design (Koa, Postgres, BullMQ,
 * one worker; `scripts/bench/floor/`) in three variants, beside this checkout as deployed, each on a
 * Redis server and database of its own, measured in rotating rounds against one LLM simulator:
 * CPU per single-agent run by process, answers/s at 50 clients, added latency at one client.
 * Prints the table, writes `.bench/floor-<stamp>.json`, exits 1 if a request failed.
 */
export const run: ScenarioRun = async (argv) => {
  const opts = parseFloorOptions(argv);
  const stamp = runStamp();
  const machine = machineInfo();
  const say = (line: string) => process.stderr.write(`[floor] ${line}\n`);
  return withTeardown(async (onTeardown) => {
    await ensureServices("apiary_bench_current", process.env, benchPath(`floor-${stamp}-ensure-services.log`));
    const simulatorUrl = await startSimulatorProcess(benchPath(`floor-${stamp}-llm-simulator.log`), onTeardown);
    const subjects = [await startRealStack(simulatorUrl, stamp, say, onTeardown, opts.profile)];
    for (const v of FLOOR_VARIANTS) {
      say(`starting ${v.label}: ${v.describe}`);
      subjects.push(await startFloorStack(v, simulatorUrl, stamp, onTeardown, opts.profile));
    }
    for (const s of subjects) await checkAnswers(s);
    await warmUp(subjects, opts, say);

    const endCpu = startCpuWindow();
    const rounds = await measureFloorRounds(subjects, simulatorUrl, opts, say);
    const cpu = endCpu();
    const labels = subjects.map((s) => s.label);
    const summaries = Object.fromEntries(labels.map((l) => [l, summarizeSubject(rounds, l)]));
    const failed = Object.values(summaries).some((s) => s.failures > 0);
    const lines = [
      `The design's floor — ${machine.date}, ${machine.cpuModel} x${machine.cores}, node ${machine.node}`,
      ...subjects.map((s) => s.describe),
      `each on a Redis server of its own and a fresh database on the shared Postgres; NODE_ENV=production, default settings`,
      `${opts.rounds} round(s) x ${opts.durationS} s per figure per subject, order rotating every round, medians over rounds` +
        `${opts.quick ? " (--quick: smoke test, not a result)" : ""}`,
      `load average (1 min): ${machine.loadAvg1m.toFixed(2)} before set-up, ${loadavg()[0].toFixed(2)} at the end, on ${machine.cores} cores`,
      cpuHeaderLine(
        cpu,
        rounds.flatMap((r) => Object.values(r.subjects).map((s) => s.agent.window.cpu)),
      ),
      "",
      renderFloorTable(labels, summaries),
      "",
      `CPU from /proc/<pid>/stat utime+stime over each c=50 window (load + drain) / runs that succeeded in it; ` +
        `postgres backends = the subject's database's connections, postgres server = the shared server's own processes, ` +
        `redis = the subject's own redis-server.`,
      "",
      "windows (load average and steal at each):",
      renderFloorWindows(rounds),
    ];
    if (failed) lines.push("", "NOT A VALID RESULT: some measured requests failed; see the raw results and the logs.");
    const path = writeJsonResult(`floor-${stamp}.json`, {
      scenario: "floor",
      machine,
      cpu,
      options: opts,
      subjects: subjects.map((s) => s.describe),
      summaries,
      rounds,
      failed,
    });
    lines.push("", `raw results: ${path}`);
    process.stdout.write(`${lines.join("\n")}\n`);
    return failed ? 1 : 0;
  });
};
