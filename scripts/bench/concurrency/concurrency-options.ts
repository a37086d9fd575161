import { positive } from "../bench-options";
import { parseFlags } from "../scenario";

/** Flags of the concurrency scenario. */
export interface ConcurrencyOptions {
  /** Simultaneous swarm requests. */
  requests: number;
  /** Simulated latency of every LLM call, ms. */
  latencyMs: number;
  /** Swarm worker processes sharing the burst. */
  workers: number;
  quick: boolean;
  /** Run web and workers under `--cpu-prof` (profiles in `.bench/`). */
  profile: boolean;
}

const DEFAULTS = { requests: 2_000, latencyMs: 1_000, workers: 2 };
// --quick is a smoke test of the harness: a tenth of the burst.
const QUICK_REQUESTS = 200;

/** Parses `[--requests N] [--latency MS] [--workers N] [--quick] [--profile]`; explicit flags win over `--quick`. */
export function parseConcurrencyOptions(argv: string[]): ConcurrencyOptions {
  const values = parseFlags(argv, {
    requests: { type: "string" },
    latency: { type: "string" },
    workers: { type: "string" },
    quick: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
  });
  const quick = values.quick === true;
  return {
    requests: positive("requests", values.requests, true) ?? (quick ? QUICK_REQUESTS : DEFAULTS.requests),
    latencyMs: positive("latency", values.latency, true) ?? DEFAULTS.latencyMs,
    workers: positive("workers", values.workers, true) ?? DEFAULTS.workers,
    quick,
    profile: values.profile === true,
  };
}
