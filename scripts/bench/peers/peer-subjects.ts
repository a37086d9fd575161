import { loadavg } from "node:os";
import type { HttpTarget } from "../client/http-target";
import { runLoad, type LoadResult } from "../client/load-run";
import { startCpuAccount, startTreeCpuAccount } from "../probes/cpu-account";
import type { DeployedStack } from "../deployed/deployed-stack";
import { startCpuWindow } from "../probes/cpu-usage";
import { freePorts } from "../stack/free-port";
import { startProcess, type ManagedProcess } from "../stack/managed-process";
import type { TeardownStep } from "../stack/teardown";
import type { PeerFolder } from "./peer-install";
import { PEERS } from "./peer-list";
import type { PeerWindow } from "./peers-report";

/** Something the scenario measures alike: a peer server or one of Apiary's endpoints. */
export interface PeerSubject {
  name: string;
  does: string;
  target: HttpTarget;
  /** Runs `load` as one throughput window, counting CPU of every process of the subject. */
  window(load: () => Promise<LoadResult>): Promise<PeerWindow>;
  /** Throws if one of its processes has exited. */
  assertAlive(): void;
}

const START_TIMEOUT_MS = 120_000;
const DRAIN_TIMEOUT_MS = 120_000;

function alive(proc: ManagedProcess): void {
  const s = proc.exitStatus();
  if (s) throw new Error(`${proc.name} exited (${s.signal ?? `code ${s.code}`}); see ${proc.logFile}:\n${proc.tail()}`);
}

/** Polls `url` until the server answers at all (a status is enough: the pre-flight checks the body). */
async function waitForAnswer(url: string, proc: ManagedProcess): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    alive(proc);
    try {
      await (await fetch(url, { signal: AbortSignal.timeout(2_000) })).arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${proc.name} did not answer ${url} within ${START_TIMEOUT_MS / 1000} s:\n${proc.tail()}`);
}

/**
 * Starts every peer server from its folder (one process per server: both LangGraph graphs share
 * one library server and one API server), each with the simulator's address and its defaults
 * (NODE_ENV=production, LangSmith tracing off: nothing may leave the machine).
 */
export async function startPeers(
  dirs: Record<PeerFolder, string>,
  simulatorUrl: string,
  logFile: (name: string) => string,
  onTeardown: (step: TeardownStep) => void,
): Promise<PeerSubject[]> {
  const servers = new Map<string, { proc: ManagedProcess; url: string }>();
  const subjects: PeerSubject[] = [];
  for (const spec of PEERS) {
    let server = servers.get(spec.server);
    if (!server) {
      const [port] = await freePorts(1);
      const env = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        NODE_ENV: "production",
        PORT: String(port),
        SIMULATOR_URL: simulatorUrl,
        LANGSMITH_TRACING: "false",
        LANGCHAIN_TRACING_V2: "false",
      };
      const proc = startProcess(
        spec.server,
        spec.command(process.execPath, port),
        env,
        logFile(spec.server),
        undefined,
        dirs[spec.folder],
      );
      onTeardown(() => proc.stop());
      server = { proc, url: `http://127.0.0.1:${port}` };
      servers.set(spec.server, server);
      await waitForAnswer(`${server.url}${spec.readyPath}`, proc);
    }
    const { proc, url } = server;
    subjects.push({
      name: spec.name,
      does: spec.does,
      target: spec.target(url, simulatorUrl),
      async window(load) {
        const endCpu = startCpuWindow();
        const endAccount = startTreeCpuAccount({ peer: proc.pid! });
        const result = await load();
        const cpuS = endAccount().peer ?? 0;
        alive(proc);
        return {
          load: result,
          requests: result.okPerSec * result.durationS,
          cpuS,
          cpu: endCpu(),
          loadAvg1m: loadavg()[0],
        };
      },
      assertAlive: () => alive(proc),
    });
  }
  return subjects;
}

/**
 * Apiary's two rows on a stack started as deployed: an agent completion and a 3-agent ConcurrentWorkflow. A window
 * lasts until the queue is drained (runs autocannon cut off still finish and spend CPU) and counts
 * the runs finished in the stack's database, and CPU of every Node process, its Postgres backends,
 * the Postgres server and Redis, as the deployed scenario does.
 */
export function apiarySubjects(stack: DeployedStack, targets: { agent: HttpTarget; swarm: HttpTarget }): PeerSubject[] {
  const subject = (kind: "agent" | "swarm", name: string, does: string, target: HttpTarget): PeerSubject => ({
    name,
    does,
    target,
    async window(load) {
      const before = await stack.finishedRuns(kind);
      const endCpu = startCpuWindow();
      const endAccount = startCpuAccount(stack.pids);
      const result = await load();
      await stack.queues[kind].waitUntilIdle(DRAIN_TIMEOUT_MS);
      const cpuS = Object.values(endAccount()).reduce((a, b) => a + b, 0);
      const cpu = endCpu();
      stack.assertAlive();
      return { load: result, requests: (await stack.finishedRuns(kind)) - before, cpuS, cpu, loadAvg1m: loadavg()[0] };
    },
    assertAlive: () => stack.assertAlive(),
  });
  return [
    subject(
      "agent",
      "Apiary agent completion (as deployed)",
      "1 LLM call, stored run (POST /v1/agent/completions)",
      targets.agent,
    ),
    subject("swarm", "Apiary ConcurrentWorkflow x3", "3 parallel LLM calls, stored swarm run", targets.swarm),
  ];
}

/** Discarded load on every subject: JIT, pools and caches get going. */
export async function warmUp(subjects: PeerSubject[], clients: number, seconds: number, say: (l: string) => void) {
  for (const s of subjects) {
    say(`warming up ${s.name} (${seconds} s at c=${clients})`);
    await s.window(() => runLoad(s.target, clients, seconds));
  }
}
