import { measure as concurrency } from "../concurrency/concurrency";
import { measure as overhead } from "../overhead/overhead";
import { machineInfo } from "../probes/machine-info";
import { runStamp, writeJsonResult } from "../report/results-file";
import { parseFlags, type ScenarioMeasure, type ScenarioRun } from "../scenario";
import { measure as swarms } from "../swarms/swarms";
import { measure as throughput } from "../throughput/throughput";
import { renderHeadlineTable, type ScenarioPart } from "./headline-table";

/** The scenarios of the combined run, in the order they run. */
const PARTS: [string, ScenarioMeasure][] = [
  ["overhead", overhead],
  ["throughput", throughput],
  ["concurrency", concurrency],
  ["swarms", swarms],
];

/**
 * `npm run bench` with no scenario: overhead, throughput, concurrency and swarm depth one after
 * the other (each with its own stack and tables), then one combined table of their key figures.
 * A scenario that fails to run is reported in the table and the others still run. Writes
 * `.bench/all-<stamp>.json` (the combined figures and where each scenario's raw results are).
 */
export const run: ScenarioRun = async (argv) => {
  const quick = parseFlags(argv, { quick: { type: "boolean", default: false } }).quick === true;
  const machine = machineInfo();
  const stamp = runStamp();
  const parts: ScenarioPart[] = [];
  for (const [name, measure] of PARTS) {
    process.stderr.write(`\n[all] ${name} (${parts.length + 1}/${PARTS.length})\n`);
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1_000;
    try {
      const r = await measure(quick ? ["--quick"] : []);
      parts.push({ name, code: r.code, seconds: seconds(), headline: r.headline, rawFile: r.rawFile, error: null });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      process.stderr.write(`[all] ${name} failed: ${error}\n`);
      parts.push({ name, code: 1, seconds: seconds(), headline: [], rawFile: null, error });
    }
    process.stdout.write("\n");
  }
  const path = writeJsonResult(`all-${stamp}.json`, { scenario: "all", machine, quick, parts });
  process.stdout.write(`${renderHeadlineTable(parts, machine, quick)}\n\ncombined results: ${path}\n`);
  return parts.every((p) => p.code === 0) ? 0 : 1;
};
