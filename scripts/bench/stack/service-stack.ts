import type { BenchPorts } from "./bench-env";
import { waitForHttpOk } from "./http-ready";
import { nodeTsx, startProcess, type ManagedProcess } from "./managed-process";
import { simulatorCommand, simulatorListening } from "./simulator-process";
import type { TeardownStep } from "./teardown";

/** The running simulator, web and worker processes, and where to reach them. */
export interface ServiceStack {
  simulatorUrl: string;
  /** The first web process's execution API. */
  apiUrl: string;
  /** Every web process's execution API, the first one first. */
  apiUrls: string[];
  processes: ManagedProcess[];
  /** Throws if any of the processes has exited, naming it and its last output. */
  assertAlive(): void;
  /**
   * Stops one process on purpose (it finishes the jobs in hand) and stops watching it, so
   * `assertAlive` does not report it as a crash. Used to measure with fewer workers in the same run.
   */
  stopProcess(name: string): Promise<void>;
  /** Kills one process with `signal` at once (a simulated crash) and stops watching it. */
  killProcess(name: string, signal: NodeJS.Signals): Promise<void>;
}

/** One `workers/main.ts` process: its name (also its log file's) and the queues it consumes. */
export interface WorkerSpec {
  name: string;
  queues: string[];
}

/** Ports of one more web process, next to the first one's in `BenchPorts`. */
export interface WebPorts {
  api: number;
  platform: number;
}

/** What production's Procfile runs for the agent endpoints: one worker for the `agent` queue. */
const ONE_AGENT_WORKER: WorkerSpec[] = [{ name: "worker", queues: ["agent"] }];

const START_TIMEOUT_MS = 60_000;

function deadProcess(processes: ManagedProcess[]): string | null {
  for (const p of processes) {
    const s = p.exitStatus();
    if (s) return `${p.name} exited (${s.signal ?? `code ${s.code}`}); see ${p.logFile}:\n${p.tail()}`;
  }
  return null;
}

/**
 * Starts the LLM simulator and the service as production runs it: one web process and separate
 * worker processes (the Procfile's process types, not `npm start`'s all-in-one group); by default
 * one worker for the `agent` queue, or the `workers` given. Each of `extraWebs` adds a web process
 * on its own ports (`web-2`, `web-3`…), the way the service is scaled out.
 * The teardown step is registered before anything is spawned, so a failed start still cleans up;
 * it stops all processes at once (a sequential stop could leave the web waiting on a dead worker).
 * `logFile(name)` says where each process's output goes; with `profileDir`, web and workers run under
 * `--cpu-prof` and write their profiles there when they stop.
 */
export async function startServiceStack(
  ports: BenchPorts,
  env: NodeJS.ProcessEnv,
  logFile: (name: string) => string,
  onTeardown: (step: TeardownStep) => void,
  workers: WorkerSpec[] = ONE_AGENT_WORKER,
  extraWebs: WebPorts[] = [],
  profileDir?: string,
): Promise<ServiceStack> {
  const processes: ManagedProcess[] = [];
  onTeardown(async () => {
    await Promise.all(processes.map((p) => p.stop()));
  });
  // Node refuses --cpu-prof in NODE_OPTIONS; a profile is written when its process exits (teardown's SIGTERM).
  const profiled = (argv: string[]) =>
    profileDir ? [argv[0], "--cpu-prof", `--cpu-prof-dir=${profileDir}`, ...argv.slice(1)] : argv;
  const start = (name: string, command: string[], own: NodeJS.ProcessEnv = env) => {
    const proc = startProcess(name, name === "llm-simulator" ? command : profiled(command), own, logFile(name));
    processes.push(proc);
    return proc;
  };

  const simulator = start("llm-simulator", simulatorCommand(ports.simulator));
  // The web and worker do not call the simulator until a request arrives, so they start in parallel.
  start("web", nodeTsx("api/main.ts"));
  extraWebs.forEach((p, i) =>
    start(`web-${i + 2}`, nodeTsx("api/main.ts"), { ...env, PORT: String(p.api), PLATFORM_PORT: String(p.platform) }),
  );
  // Several workers on one machine: each serves its metrics on a free port (`0`) instead of the default one.
  for (const w of workers)
    start(w.name, nodeTsx("workers/main.ts", "--queues", w.queues.join(","), "--metrics-port", "0"));

  await simulatorListening(simulator);
  const apiUrls = [ports.api, ...extraWebs.map((p) => p.api)].map((port) => `http://127.0.0.1:${port}`);
  // /health checks Postgres and Redis from the web process; the worker has no endpoint, so the
  // caller's first real request is what proves the worker consumes jobs.
  for (const url of apiUrls) await waitForHttpOk(`${url}/health`, START_TIMEOUT_MS, () => deadProcess(processes));

  const unwatch = (name: string): ManagedProcess => {
    const proc = processes.find((p) => p.name === name);
    if (!proc) throw new Error(`no running process named ${name}`);
    processes.splice(processes.indexOf(proc), 1);
    return proc;
  };

  return {
    simulatorUrl: `http://127.0.0.1:${ports.simulator}`,
    apiUrl: apiUrls[0],
    apiUrls,
    processes,
    assertAlive() {
      const dead = deadProcess(processes);
      if (dead) throw new Error(dead);
    },
    async stopProcess(name) {
      await unwatch(name).stop();
    },
    async killProcess(name, signal) {
      await unwatch(name).kill(signal);
    },
  };
}
