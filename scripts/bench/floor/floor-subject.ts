import type { StackPids } from "../probes/cpu-account";

/** One implementation the floor scenario measures: the real stack or a floor variant. */
export interface FloorSubject {
  /** Its name in the tables: `real`, `floor-A`, … */
  label: string;
  /** One line saying what it is, for the output. */
  describe: string;
  apiUrl: string;
  apiKey: string;
  /** Its processes, Postgres backends and Redis server, for the CPU account. */
  pids: StackPids;
  /** Single-agent runs that succeeded so far, from its database (the denominator of CPU per run). */
  finishedRuns(): Promise<number>;
  /** Resolves once no run waits or runs; rejects after `timeoutMs`. */
  waitUntilIdle(timeoutMs: number): Promise<void>;
  /** Throws if one of its processes has exited. */
  assertAlive(): void;
}
