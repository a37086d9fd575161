import { readFileSync } from "node:fs";
import { classifyPostgresProcess, cpuSeconds, parseStatTimes, recordTicks, type TickSpan } from "./proc-accounting";

/** The OS processes one stack's runs spend CPU in. */
export interface StackPids {
  /** Procfile process name → pid (web, worker-swarm, worker-agent, worker-chain). */
  node: Record<string, number>;
  /** The Postgres server's main process (its children are found at every reading). */
  postmaster: number;
  /** The stack's database: backends of other databases are not counted. */
  database: string;
  redis: number;
}

/** CPU seconds per counted role over one window. */
export type CpuByRole = Record<string, number>;

/** Role names of the non-Node rows, in the order the tables show them. */
export const SERVICE_ROLES = ["postgres backends", "postgres server", "redis"] as const;

const SAMPLE_MS = 200;

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null; // the process has exited (a closed connection's backend)
  }
}

function children(pid: number): number[] {
  return (read(`/proc/${pid}/task/${pid}/children`) ?? "").split(/\s+/).filter(Boolean).map(Number);
}

/**
 * Starts counting the CPU time (utime + stime from /proc/<pid>/stat) of every process a stack's
 * runs use: its Node processes, the Postgres backends connected to its database, the Postgres
 * server's own processes (postmaster, checkpointer, walwriter, background writer, autovacuum
 * launcher…) and redis-server. Postgres children are listed again at every reading, so a
 * connection opened during the window is counted from when it is first seen.
 *
 * The Postgres server processes and Redis are shared with the other stack (and anything else on
 * the machine); the scenario measures one stack at a time, so their CPU in a window is the
 * measured stack's (plus the background of the machine, which both stacks' windows see alike).
 */
export function startCpuAccount(pids: StackPids): () => CpuByRole {
  const spans = new Map<string, Map<number, TickSpan>>();
  const note = (role: string, pid: number) => {
    const stat = read(`/proc/${pid}/stat`);
    const times = stat ? parseStatTimes(stat) : null;
    if (!times) return;
    let bucket = spans.get(role);
    if (!bucket) spans.set(role, (bucket = new Map()));
    recordTicks(bucket, pid, times.cpuTicks);
  };
  const sample = () => {
    for (const [name, pid] of Object.entries(pids.node)) note(name, pid);
    note("postgres server", pids.postmaster);
    for (const child of children(pids.postmaster)) {
      const role = classifyPostgresProcess(read(`/proc/${child}/cmdline`) ?? "", pids.database);
      if (role === "backend") note("postgres backends", child);
      else if (role === "server") note("postgres server", child);
    }
    note("redis", pids.redis);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return () => {
    clearInterval(timer);
    sample();
    const out: CpuByRole = {};
    for (const [role, bucket] of spans) out[role] = cpuSeconds(bucket.values());
    return out;
  };
}

/** The parent pid of `pid` (e.g. the postmaster, from one of its backends). */
export function parentPid(pid: number): number {
  const times = parseStatTimes(read(`/proc/${pid}/stat`) ?? "");
  if (!times) throw new Error(`cannot read /proc/${pid}/stat`);
  return times.ppid;
}
