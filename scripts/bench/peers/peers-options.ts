import { positive } from "../bench-options";
import { parseFlags } from "../scenario";

/** How the `peers` scenario measures. */
export interface PeersOptions {
  /** Seconds per measured run (each peer, each figure, each round). */
  durationS: number;
  /** Seconds of discarded load per peer before the first round. */
  warmupS: number;
  rounds: number;
  /** Clients of the throughput figure (autocannon, keep-alive). */
  clients: number;
  quick: boolean;
}

const DEFAULTS = { durationS: 10, warmupS: 3, rounds: 3, clients: 50 };
// --quick is a smoke test of the harness, not a result worth quoting: one short round.
const QUICK = { durationS: 3, warmupS: 1, rounds: 1, clients: 50 };

/** Parses the scenario's flags; explicit flags win over the `--quick` presets. */
export function parsePeersOptions(argv: string[]): PeersOptions {
  const v = parseFlags(argv, {
    duration: { type: "string" },
    warmup: { type: "string" },
    rounds: { type: "string" },
    clients: { type: "string" },
    quick: { type: "boolean", default: false },
  });
  const base = v.quick ? QUICK : DEFAULTS;
  return {
    durationS: positive("duration", v.duration, false) ?? base.durationS,
    warmupS: positive("warmup", v.warmup, false) ?? base.warmupS,
    rounds: positive("rounds", v.rounds, true) ?? base.rounds,
    clients: positive("clients", v.clients, true) ?? base.clients,
    quick: v.quick === true,
  };
}
