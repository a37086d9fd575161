import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** Starts a project entry point (e.g. `workers/main.ts`) in its own process with the test environment. */
export function spawnEntry(
  entry: string,
  args: string[],
  env: Record<string, string> = {},
): ChildProcess & { output: string[] } {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  }) as ChildProcess & { output: string[] };
  child.output = [];
  child.stdout!.on("data", (d) => child.output.push(String(d)));
  child.stderr!.on("data", (d) => child.output.push(String(d)));
  return child;
}

/** Resolves with the exit code (or signal) when the process ends. */
export function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
}
