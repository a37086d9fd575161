import { positive } from "../bench-options";
import { parseFlags } from "../scenario";

/** How the `deployed` scenario measures. */
export interface DeployedOptions {
  /** The git ref of the baseline stack; undefined: `main` (or `main~1` on main itself). */
  baseline: string | undefined;
  /** Seconds per measured run (each figure, each stack, each round). */
  durationS: number;
  /** Seconds of discarded load per stack before the first round. */
  warmupS: number;
  rounds: number;
  /** Minutes of sustained agent completion load after the rounds, for the memory figure (0: none). */
  soakMinutes: number;
  /** Clients of the ConcurrentWorkflow CPU run (closed loop, each waits for its answer). */
  swarmClients: number;
  quick: boolean;
  /** Run every Node process of each stack under `--cpu-prof`, its profiles written to `.bench/`. */
  profile: boolean;
  /** Measure how CPU per request grows with agents, loops and batch size (this checkout only). */
  growth: boolean;
}

const DEFAULTS = { durationS: 10, warmupS: 3, rounds: 3, soakMinutes: 0, swarmClients: 20 };
// --quick is a smoke test of the harness, not a result worth quoting: one short round, a short soak.
const QUICK = { durationS: 3, warmupS: 1, rounds: 1, soakMinutes: 0.5, swarmClients: 10 };

/** Parses the scenario's flags; explicit flags win over the `--quick` presets. */
export function parseDeployedOptions(argv: string[]): DeployedOptions {
  const v = parseFlags(argv, {
    baseline: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    rounds: { type: "string" },
    minutes: { type: "string" },
    quick: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    growth: { type: "boolean", default: false },
  });
  const base = v.quick ? QUICK : DEFAULTS;
  return {
    baseline: v.baseline,
    durationS: positive("duration", v.duration, false) ?? base.durationS,
    warmupS: positive("warmup", v.warmup, false) ?? base.warmupS,
    rounds: positive("rounds", v.rounds, true) ?? base.rounds,
    soakMinutes: positive("minutes", v.minutes, false) ?? base.soakMinutes,
    swarmClients: base.swarmClients,
    quick: v.quick === true,
    profile: v.profile === true,
    growth: v.growth === true,
  };
}
