import { jsonRequest } from "../client/json-request";
import { machineInfo } from "../probes/machine-info";
import { parseRepOptions } from "../rep-options";
import { runStamp } from "../report/results-file";
import { finishScenario } from "../report/scenario-output";
import { standAlone, UsageError, type ScenarioMeasure } from "../scenario";
import { setUpStack } from "../stack/stack-setup";
import { withTeardown } from "../stack/teardown";
import { RUN_WORKERS } from "../stack/worker-specs";
import type { SwarmShape } from "../targets/swarm-body";
import { SWARM_CASES } from "./swarm-cases";
import { measureSwarms, type SwarmsContext } from "./swarms-measure";
import {
  hasFailures,
  judgeType,
  renderSwarmRunsTable,
  renderSwarmsTable,
  swarmsHeadline,
  type SwarmOutcome,
} from "./swarms-report";

/** The types the running service says it can run (`GET /v1/swarms/available`). */
async function availableTypes(apiUrl: string, apiKey: string): Promise<string[]> {
  const answer = await jsonRequest("GET", `${apiUrl}/v1/swarms/available`, { apiKey });
  const types = (answer.json as { swarm_types?: unknown })?.swarm_types;
  if (answer.status !== 200 || !Array.isArray(types))
    throw new Error(`GET /v1/swarms/available: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  return types.map(String);
}

/** Every type the case table or the service knows, case-table order first; `only` narrows it. */
function typesToReport(available: string[], only: string[] | null): string[] {
  const all = [...Object.keys(SWARM_CASES), ...available.filter((t) => !(t in SWARM_CASES))];
  if (!only) return all;
  const unknown = only.filter((t) => !all.includes(t));
  if (unknown.length)
    throw new UsageError(`--only: unknown swarm type(s) ${unknown.join(", ")} (known: ${all.join(", ")})`);
  return all.filter((t) => only.includes(t));
}

/**
 * Swarm completion depth efficiency: for each swarm type the service lists, a representative request with every
 * agent at 300 ms per LLM call, its `execution_time` against depth × 300 ms (docs/swarm-types.md's
 * depth column). Prints the tables, writes `.bench/swarms-<stamp>.json`, and exits 1 if a measured
 * type misses the check or an available type fails.
 */
export const measure: ScenarioMeasure = async (argv) => {
  const opts = parseRepOptions(argv, { reps: 3, allowOnly: true });
  const stamp = runStamp();
  const machine = machineInfo();
  return withTeardown(async (onTeardown) => {
    // Swarm turns run inside the swarm worker; the agent worker is there because production runs one.
    const setup = await setUpStack("swarms", stamp, onTeardown, { workers: RUN_WORKERS });
    const queue = setup.watchQueue("swarm");
    const { apiUrl, simulatorUrl } = setup.stack;
    const ctx: SwarmsContext = {
      apiUrl,
      apiKey: setup.apiKey,
      simulatorUrl,
      queue,
      assertAlive: () => setup.stack.assertAlive(),
    };

    const available = await availableTypes(apiUrl, setup.apiKey);
    setup.say(`the service lists ${available.length} type(s): ${available.join(", ")}`);
    const types = typesToReport(available, opts.only);
    const toRun = types
      .filter(
        (t) =>
          available.includes(t) &&
          SWARM_CASES[t] &&
          (SWARM_CASES[t].depthFromResponse || !("skip" in SWARM_CASES[t].depth)),
      )
      .map((t): [string, SwarmShape] => [t, SWARM_CASES[t].shape]);

    const { warmup, runs, cpu } = await measureSwarms(ctx, toRun, opts.reps, setup.say);

    const outcomes: SwarmOutcome[] = types.map((type) => {
      if (!available.includes(type)) return { type, kind: "not available" };
      if (!SWARM_CASES[type]) return { type, kind: "no case" };
      return judgeType(
        type,
        SWARM_CASES[type],
        runs.filter((r) => r.type === type),
      );
    });
    const failed = hasFailures(outcomes);
    const lines = [
      renderSwarmsTable(outcomes, SWARM_CASES, machine, cpu, runs, opts),
      "",
      "per run:",
      renderSwarmRunsTable(runs),
    ];
    if (failed) lines.push("", `child process logs: ${Object.values(setup.logs).join(", ")}`);
    const rawFile = finishScenario(setup, {
      scenario: "swarms",
      stamp,
      machine,
      options: opts,
      lines,
      problems: [],
      // cpu is over the measured passes (warm-up excluded); per run in runs[].cpu.
      raw: { available, cpu, cases: Object.fromEntries(toRun), outcomes, runs, warmup },
      failed,
    });
    return { code: failed ? 1 : 0, headline: swarmsHeadline(outcomes), rawFile };
  });
};

/** `npm run bench -- swarms`. */
export const run = standAlone(measure);
