import { positive } from "../bench-options";
import { parseFlags } from "../scenario";

/** How the `floor` scenario measures. */
export interface FloorOptions {
  /** Seconds per measured run (each figure, each subject, each round). */
  durationS: number;
  /** Seconds of discarded load per subject before the first round. */
  warmupS: number;
  rounds: number;
  quick: boolean;
  /** Run every Node process under `--cpu-prof`, the profiles written to `.bench/` at the end. */
  profile: boolean;
}

const DEFAULTS = { durationS: 10, warmupS: 3, rounds: 3 };
// --quick is a smoke test of the harness (about two minutes with the build), not a result.
const QUICK = { durationS: 3, warmupS: 1, rounds: 1 };

/** Parses the scenario's flags; explicit flags win over the `--quick` presets. */
export function parseFloorOptions(argv: string[]): FloorOptions {
  const v = parseFlags(argv, {
    duration: { type: "string" },
    warmup: { type: "string" },
    rounds: { type: "string" },
    quick: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
  });
  const base = v.quick ? QUICK : DEFAULTS;
  return {
    durationS: positive("duration", v.duration, false) ?? base.durationS,
    warmupS: positive("warmup", v.warmup, false) ?? base.warmupS,
    rounds: positive("rounds", v.rounds, true) ?? base.rounds,
    quick: v.quick === true,
    profile: v.profile === true,
  };
}
