import { run as all } from "./all/all";
import { run as batch } from "./batch/batch";
import { run as concurrency } from "./concurrency/concurrency";
import { run as deployed } from "./deployed/deployed";
import { run as e5 } from "./e5/e5";
import { run as fairness } from "./fairness/fairness";
import { run as floor } from "./floor/floor";
import { run as overhead } from "./overhead/overhead";
import { run as peers } from "./peers/peers";
import { run as runCost } from "./run-cost/run-cost";
import { UsageError, type ScenarioRun } from "./scenario";
import { run as swarms } from "./swarms/swarms";
import { run as throughput } from "./throughput/throughput";

/**
 * `npm run bench -- [scenario] [flags]`: dispatches to one scenario module; without a scenario
 * (or with only flags) it runs `all`.
 *
 * The map is explicit (one line per scenario) rather than discovered from the file system, so a
 * half-written scenario file never becomes runnable by accident.
 */
const SCENARIOS: Record<string, { summary: string; flags: string; run: ScenarioRun }> = {
  all: {
    summary: "the default: overhead, throughput, concurrency and swarms in sequence, then one combined table",
    flags: "[--quick]",
    run: all,
  },
  e5: {
    summary: "single-agent completion: LLM simulator directly vs through Apiary",
    flags: "[--duration S] [--warmup S] [--rounds N] [--quick]",
    run: e5,
  },
  batch: {
    summary: "agent batch of 100 items at 500 ms with 2 agent workers (and 1 as baseline) against the 3 s requirement",
    flags: "[--reps N] [--quick]",
    run: batch,
  },
  overhead: {
    summary:
      "added latency p50/p99 of an agent completion, an OpenAI chat completion and a 3-agent ConcurrentWorkflow through Apiary vs direct simulator calls, at c=1, 50, 200",
    flags: "[--duration S] [--warmup S] [--rounds N] [--quick]",
    run: overhead,
  },
  throughput: {
    summary: "scale-out: agent completions/s at zero simulated latency with 1, 2, 4 agent workers, and 2 web processes",
    flags: "[--duration S] [--warmup S] [--rounds N] [--quick]",
    run: throughput,
  },
  concurrency: {
    summary:
      "2,000 simultaneous 3-agent ConcurrentWorkflow requests at 1 s per LLM call: all succeed? time vs ideal, peak RSS per process",
    flags: "[--requests N] [--latency MS] [--workers N] [--quick] [--profile]",
    run: concurrency,
  },
  swarms: {
    summary:
      "swarm completion depth efficiency: each available swarm type's execution_time vs depth x 300 ms per LLM call",
    flags: "[--reps N] [--only Type1,Type2] [--quick]",
    run: swarms,
  },
  fairness: {
    summary:
      "fair dispatch: one account's run while another account's backlog drains, against that account's own next run (first in, first out)",
    flags: "[--reps N] [--backlog N] [--latency MS] [--quick]",
    run: fairness,
  },
  deployed: {
    summary:
      "as deployed: this checkout and --baseline (default main) built and started as the Procfile says, " +
      "side by side: agent completion added latency and c=50 completions/s, CPU per run of every process incl. Postgres and Redis, RSS",
    flags: "[--baseline REF] [--duration S] [--warmup S] [--rounds N] [--minutes N] [--quick]",
    run: deployed,
  },
  "run-cost": {
    summary:
      "what one run costs the stores, counted: Redis commands by name (a Redis of its own) and Postgres commits and rows, " +
      "per single-agent run at c=1 and c=50 and per 3-agent ConcurrentWorkflow",
    flags: "[--runs N] [--duration S] [--quick]",
    run: runCost,
  },
  floor: {
    summary:
      "the design's floor: a minimal Koa + Postgres + BullMQ + worker implementation (with the openai SDK, with fetch, " +
      "and on a plain Redis list) beside this checkout as deployed: CPU per run by process, c=50 answers/s, c=1 added latency, ratios",
    flags: "[--duration S] [--warmup S] [--rounds N] [--quick] [--profile]",
    run: floor,
  },
  peers: {
    summary:
      "peers: a bare Koa + OpenAI SDK proxy, the Portkey gateway, LangGraph.js as a library and as its API " +
      "server, and Apiary as deployed, on one simulator and client: req/s, p50/p99, CPU ms per request, ratio vs the proxy",
    flags: "[--duration S] [--warmup S] [--rounds N] [--clients N] [--quick]",
    run: peers,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(SCENARIOS).map((n) => n.length)) + 2;
  const lines = Object.entries(SCENARIOS).flatMap(([name, s]) => [
    `  ${name.padEnd(width)}${s.summary}`,
    `  ${"".padEnd(width)}flags: ${s.flags}`,
  ]);
  return ["usage: npm run bench [-- <scenario> [flags]]", "scenarios:", ...lines].join("\n");
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "--help" || argv[0] === "-h") {
    console.error(usage());
    return 0;
  }
  // No scenario name (nothing, or flags only, e.g. `npm run bench -- --quick`): the combined run.
  const [name, ...rest] = argv[0] === undefined || argv[0].startsWith("-") ? ["all", ...argv] : argv;
  const scenario = SCENARIOS[name];
  if (!scenario) {
    console.error(`unknown scenario: ${name}\n${usage()}`);
    return 2;
  }
  try {
    return await scenario.run(rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n${usage()}`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // The message names the failing step and includes the child's output; a stack would bury it.
    // BENCH_DEBUG=1 shows the stack for harness bugs.
    const detail =
      err instanceof Error ? (process.env.BENCH_DEBUG ? (err.stack ?? err.message) : err.message) : String(err);
    console.error(`bench: ${detail}`);
    process.exit(1);
  },
);
