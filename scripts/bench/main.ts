import { run as batch } from "./batch";
import { run as e5 } from "./e5";
import { run as swarms } from "./swarms";
import { UsageError, type ScenarioRun } from "./scenario";

/**
 * `npm run bench -- <scenario> [flags]`: dispatches to one scenario module.
 *
 * The map is explicit (one line per scenario) rather than discovered from the file system, so a
 * half-written scenario file never becomes runnable by accident.
 */
const SCENARIOS: Record<string, { summary: string; flags: string; run: ScenarioRun }> = {
  e5: {
    summary: "single-agent completion: LLM simulator directly vs through Apiary",
    flags: "[--duration S] [--warmup S] [--rounds N] [--quick]",
    run: e5,
  },
  batch: {
    summary: "E3 batch of 100 items at 500 ms with 2 agent workers (and 1 as baseline) against the 3 s requirement",
    flags: "[--reps N] [--quick]",
    run: batch,
  },
  swarms: {
    summary: "E1 depth efficiency: each available swarm type's execution_time vs depth x 300 ms per LLM call",
    flags: "[--reps N] [--only Type1,Type2] [--quick]",
    run: swarms,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(SCENARIOS).map((n) => n.length)) + 2;
  const lines = Object.entries(SCENARIOS).flatMap(([name, s]) => [`  ${name.padEnd(width)}${s.summary}`, `  ${"".padEnd(width)}flags: ${s.flags}`]);
  return ["usage: npm run bench -- <scenario> [flags]", "scenarios:", ...lines].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const scenario = name ? SCENARIOS[name] : undefined;
  if (!scenario) {
    console.error(name ? `unknown scenario: ${name}\n${usage()}` : usage());
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
    const detail = err instanceof Error ? (process.env.BENCH_DEBUG ? (err.stack ?? err.message) : err.message) : String(err);
    console.error(`bench: ${detail}`);
    process.exit(1);
  },
);
