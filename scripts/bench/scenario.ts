import { parseArgs, type ParseArgsConfig } from "node:util";

/**
 * What every benchmark scenario module exports: `run` receives the arguments after the scenario
 * name and resolves with the process exit code (0 clean, 1 errors seen, 2 usage).
 */
export type ScenarioRun = (argv: string[]) => Promise<number>;

/** Thrown for bad command-line arguments; the dispatcher prints usage and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** A scenario's flags (no positionals), an unknown or malformed one being a `UsageError`. */
export function parseFlags<const O extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, allowPositionals: false, strict: true, options }).values;
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** One line of the combined table `npm run bench` (scenario `all`) prints at the end. */
export interface HeadlineRow {
  /** Which requirement the line is about: overhead, throughput, concurrency, depth. */
  area: string;
  /** What was measured, e.g. `agent c=50 added p50 / p99`. */
  figure: string;
  /** The same figure's baseline from the same run (direct calls, one worker, the ideal time…). */
  baseline: string;
  measured: string;
  /** measured against baseline: a difference (`+6.5 ms`) or a ratio (`1.8 x`). */
  versus: string;
  /** CPU steal over the figure's measured window(s). */
  steal: string;
}

/** What a scenario that takes part in the combined run hands back besides printing its own tables. */
interface ScenarioResult {
  code: number;
  headline: HeadlineRow[];
  /** Where its raw JSON went. */
  rawFile: string;
}

/** A scenario that also takes part in the combined run: `run`'s job, plus the figures `all` tabulates. */
export type ScenarioMeasure = (argv: string[]) => Promise<ScenarioResult>;

/** The stand-alone form of a scenario that can also run in the combined run. */
export function standAlone(measure: ScenarioMeasure): ScenarioRun {
  return async (argv) => (await measure(argv)).code;
}
