import { run as e5 } from "./e5";
import { UsageError, type ScenarioRun } from "./scenario";

/**
 * `npm run bench -- <scenario> [flags]`: dispatches to one scenario module.
 *
 * The map is explicit (one line per scenario) rather than discovered from the file system, so a
 * half-written scenario file never becomes runnable by accident.
 */
const SCENARIOS: Record<string, { summary: string; run: ScenarioRun }> = {
  e5: { summary: "single-agent completion: LLM simulator directly vs through Apiary", run: e5 },
};

const FLAGS = "[--duration S] [--warmup S] [--rounds N] [--quick]";

function usage(): string {
  const names = Object.entries(SCENARIOS).map(([name, s]) => `  ${name.padEnd(6)} ${s.summary}`);
  return [`usage: npm run bench -- <scenario> ${FLAGS}`, "scenarios:", ...names].join("\n");
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
