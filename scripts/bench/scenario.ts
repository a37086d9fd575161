/**
 * What every benchmark scenario module exports: `run` receives the arguments after the scenario
 * name and resolves with the process exit code (0 clean, 1 errors seen, 2 usage).
 */
export type ScenarioRun = (argv: string[]) => Promise<number>;

/** Thrown for bad command-line arguments; the dispatcher prints usage and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
