import { parseFlags, UsageError } from "./scenario";

/** How long and how often a scenario measures. */
export interface BenchOptions {
  /** Seconds per measured run. */
  durationS: number;
  /** Seconds of discarded warm-up load per target. */
  warmupS: number;
  /** How many times the whole measurement set repeats; the table shows medians over rounds. */
  rounds: number;
  quick: boolean;
}

const DEFAULTS = { durationS: 10, warmupS: 3, rounds: 3 };
// --quick is a smoke test of the harness, not a result worth quoting: one short round.
const QUICK = { durationS: 3, warmupS: 1, rounds: 1 };

/** Parses the value of `--<flag>` as a positive number (an integer when `integer`); undefined when absent. */
export function positive(flag: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${flag} needs a positive ${integer ? "integer" : "number"}, got '${raw}'`);
  }
  return value;
}

/** Parses the common benchmark flags; explicit flags win over the `--quick` presets. */
export function parseBenchOptions(argv: string[]): BenchOptions {
  const values = parseFlags(argv, {
    duration: { type: "string" },
    warmup: { type: "string" },
    rounds: { type: "string" },
    quick: { type: "boolean", default: false },
  });
  const base = values.quick ? QUICK : DEFAULTS;
  return {
    durationS: positive("duration", values.duration, false) ?? base.durationS,
    warmupS: positive("warmup", values.warmup, false) ?? base.warmupS,
    rounds: positive("rounds", values.rounds, true) ?? base.rounds,
    quick: values.quick === true,
  };
}
