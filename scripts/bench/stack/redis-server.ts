import { benchPath } from "../report/results-file";
import { freePorts } from "./free-port";
import { startProcess, type ManagedProcess } from "./managed-process";
import type { TeardownStep } from "./teardown";

/** A redis-server of a benchmark's own: its URL and its process (whose pid is the server's). */
export interface OwnRedis {
  url: string;
  process: ManagedProcess;
}

/**
 * Starts a redis-server on a free port with persistence off (the shared server's settings do not
 * matter then, and `INFO commandstats` or /proc CPU counts this stack alone), its output in
 * `.bench/<logName>.log`, stopped at teardown. Resolves once the port is open: callers that need it
 * answering (not just listening) wait on their first command.
 */
export async function startOwnRedis(logName: string, onTeardown: (step: TeardownStep) => void): Promise<OwnRedis> {
  const [port] = await freePorts(1);
  const proc = startProcess(
    "redis",
    ["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    process.env,
    benchPath(`${logName}.log`),
  );
  onTeardown(() => proc.stop());
  await proc.waitForOutput(/Ready to accept connections/, 10_000);
  return { url: `redis://127.0.0.1:${port}/0`, process: proc };
}
