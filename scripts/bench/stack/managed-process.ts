import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { join } from "node:path";

/** The repository root: children run from here so their relative imports and `.env` resolve. */
export const ROOT = join(__dirname, "..", "..", "..");

/** How a process ended. */
interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A long-lived child process whose output goes to a log file. */
export interface ManagedProcess {
  readonly name: string;
  readonly logFile: string;
  /** The OS process id (undefined if it failed to start), e.g. to read its memory from /proc. */
  readonly pid: number | undefined;
  /** Resolves when the process ends, for whatever reason. */
  readonly exited: Promise<ExitStatus>;
  /** The exit status once it has ended, otherwise null. */
  exitStatus(): ExitStatus | null;
  /** Resolves when a stdout line matches `pattern`; rejects on exit or after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<void>;
  /** Last lines of its combined output, for error messages. */
  tail(lines?: number): string;
  /** Its stdout alone (the last 64 kB), e.g. to read a value a command printed. */
  stdout(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
  /** Sends `signal` to its process group at once (e.g. SIGKILL to simulate a crash); resolves once it is gone. */
  kill(signal: NodeJS.Signals): Promise<ExitStatus>;
}

/** Which OS user a child runs as (e.g. PostgreSQL's server refuses to run as root). */
export interface RunAs {
  uid: number;
  gid: number;
}

// Enough to find a readiness line and to show the reason of a crash; the full output is in the log.
const KEPT_OUTPUT_CHARS = 64_000;

/** `node --import tsx <entry> ...args`, the way the Procfile and the tests start project code. */
export function nodeTsx(entry: string, ...args: string[]): string[] {
  return [process.execPath, "--import", "tsx", entry, ...args];
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    // Negative pid: the child's whole process group (it is the leader, see `detached` below).
    process.kill(-child.pid!, signal);
  } catch {
    /* already gone */
  }
}

/**
 * Starts `command` (argv form, no shell) with `env` in `cwd` (the repository root unless another
 * checkout is benchmarked), appending stdout and stderr to `logFile`.
 *
 * `detached` puts the child in its own process group, so a Ctrl-C in the terminal reaches only the
 * benchmark, which then stops the children in order instead of racing their own shutdown.
 */
export function startProcess(
  name: string,
  command: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  runAs?: RunAs,
  cwd = ROOT,
): ManagedProcess {
  const log: WriteStream = createWriteStream(logFile, { flags: "a" });
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    ...runAs,
  });
  let output = "";
  let stdout = "";
  let status: ExitStatus | null = null;
  const stdoutWatchers = new Set<() => void>();

  const record = (chunk: Buffer) => {
    log.write(chunk);
    output = (output + chunk.toString("utf8")).slice(-KEPT_OUTPUT_CHARS);
  };
  child.stdout!.on("data", (chunk: Buffer) => {
    record(chunk);
    stdout = (stdout + chunk.toString("utf8")).slice(-KEPT_OUTPUT_CHARS);
    for (const check of stdoutWatchers) check();
  });
  child.stderr!.on("data", record);

  const exited = new Promise<ExitStatus>((resolve) => {
    child.once("error", (err) => {
      record(Buffer.from(`failed to start: ${err.message}\n`));
      status = { code: null, signal: null };
      resolve(status);
    });
    child.once("close", (code, signal) => {
      status = { code, signal };
      log.end();
      resolve(status);
    });
  });

  const describeExit = (s: ExitStatus) => (s.signal ? `signal ${s.signal}` : `code ${s.code}`);
  const tail = (lines = 20) => output.trimEnd().split("\n").slice(-lines).join("\n");

  return {
    name,
    logFile,
    pid: child.pid,
    exited,
    exitStatus: () => status,
    tail,
    stdout: () => stdout,
    waitForOutput(pattern, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(stdout)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name} printed nothing matching ${pattern} within ${timeoutMs / 1000} s\n${tail()}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          stdoutWatchers.delete(check);
        };
        stdoutWatchers.add(check);
        void exited.then((s) => {
          if (!stdoutWatchers.has(check)) return;
          done();
          reject(new Error(`${name} exited (${describeExit(s)}) before it was ready\n${tail()}`));
        });
        check();
      });
    },
    async stop(graceMs = 5_000) {
      if (status || child.pid === undefined) return;
      killGroup(child, "SIGTERM");
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async kill(signal) {
      if (!status && child.pid !== undefined) killGroup(child, signal);
      return exited;
    },
  };
}

/**
 * Runs a short command to completion and resolves with its stdout; rejects (with the output tail)
 * on a non-zero exit or after `timeoutMs`, so a hung migration cannot hang the benchmark.
 */
export async function runToCompletion(
  name: string,
  command: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  timeoutMs = 120_000,
  runAs?: RunAs,
  cwd = ROOT,
): Promise<string> {
  const proc = startProcess(name, command, env, logFile, runAs, cwd);
  const timer = setTimeout(() => void proc.stop(), timeoutMs);
  const status = await proc.exited;
  clearTimeout(timer);
  if (status.code !== 0) {
    const how = status.signal ? `signal ${status.signal}` : `exit code ${status.code}`;
    throw new Error(`${name} failed (${how}); see ${logFile}:\n${proc.tail()}`);
  }
  return proc.stdout();
}
