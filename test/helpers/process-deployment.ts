import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePorts } from "../../scripts/bench/stack/free-port";
import { waitForHttpOk } from "../../scripts/bench/stack/http-ready";
import { nodeTsx, runToCompletion, startProcess, type ManagedProcess } from "../../scripts/bench/stack/managed-process";

const START_TIMEOUT_MS = 90_000;

/** Where `npm run build` puts an entry point's JavaScript: `api/main.ts` → `dist/api/main.js`. */
export function compiledEntry(entry: string): string {
  return join("dist", entry.replace(/\.ts$/, ".js"));
}

/** A running web process: its execution API and platform addresses. */
export interface WebProcess {
  url: string;
  platformUrl: string;
}

/** A running worker process and the name BullMQ records on every job it takes (`processedBy`). */
export interface WorkerProcess {
  name: string;
}

/**
 * The service as the Procfile runs it, one process per `web` or `worker-*` entry, all sharing one
 * environment (Postgres, Redis, queue prefix, LLM endpoint), so tests can run several of each
 * type side by side. Output goes to log files in a temporary directory; a failed start shows the
 * process's last lines. With `fromDist` the processes run the compiled JavaScript of `npm run build`
 * (`node dist/api/main.js`, as the Procfile does) instead of the TypeScript sources through tsx.
 */
export class ProcessDeployment {
  private readonly processes: ManagedProcess[] = [];
  private readonly logDir = mkdtempSync(join(tmpdir(), "apiary-deployment-"));

  constructor(
    readonly env: NodeJS.ProcessEnv,
    private readonly fromDist = false,
  ) {}

  /** Starts `api/main.ts` on free ports and resolves once its `/health` answers 200. */
  async startWeb(name: string): Promise<WebProcess> {
    const [port, platformPort] = await freePorts(2);
    const proc = this.start(name, this.command("api/main.ts"), {
      PORT: String(port),
      PLATFORM_PORT: String(platformPort),
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHttpOk(`${url}/health`, START_TIMEOUT_MS, () =>
      proc.exitStatus() ? `${name} exited:\n${proc.tail()}` : null,
    );
    return { url, platformUrl: `http://127.0.0.1:${platformPort}` };
  }

  /** Starts `workers/main.ts --queues …` and resolves with its worker name once it consumes. */
  async startWorker(name: string, queues: string[]): Promise<WorkerProcess> {
    // The start line is the one place the worker states its name; it is logged at info level.
    const proc = this.start(name, this.command("workers/main.ts", "--queues", queues.join(",")), { LOG_LEVEL: "info" });
    await proc.waitForOutput(/"msg":"workers started"/, START_TIMEOUT_MS);
    const line = proc
      .stdout()
      .split("\n")
      .find((l) => l.includes('"msg":"workers started"'))!;
    return { name: JSON.parse(line).worker };
  }

  /** Runs a project script to completion (e.g. `scripts/apikey.ts revoke <id>`) in the same environment. */
  async run(name: string, entry: string, args: string[]): Promise<string> {
    return runToCompletion(name, this.command(entry, ...args), this.env, this.logFile(name), START_TIMEOUT_MS);
  }

  /** Stops every process at once (each finishes the jobs it holds) and removes the logs. */
  async stop(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop()));
    rmSync(this.logDir, { recursive: true, force: true });
  }

  private start(name: string, command: string[], extraEnv: NodeJS.ProcessEnv): ManagedProcess {
    const proc = startProcess(name, command, { ...this.env, ...extraEnv }, this.logFile(name));
    this.processes.push(proc);
    return proc;
  }

  /** How an entry point (`api/main.ts`) runs: from its source through tsx, or compiled from dist/. */
  private command(entry: string, ...args: string[]): string[] {
    if (!this.fromDist) return nodeTsx(entry, ...args);
    return [process.execPath, compiledEntry(entry), ...args];
  }

  private logFile(name: string): string {
    return join(this.logDir, `${name}.log`);
  }
}
